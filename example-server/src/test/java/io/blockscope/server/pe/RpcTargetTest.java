package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * PE over RPC starts the server's JFR GC reader when it connects, not at the end of its first slice:
 * in a server without an agent, JFR's start makes all compiled code not entrant, and a slice that
 * follows it would measure the recompilation (issue 45).
 */
class RpcTargetTest {

    private static final String STATUS = "{\"server\": {\"readPath\": \"zero-copy\", \"deploy\": \"lru\"},"
            + " \"tables\": [{\"name\": \"TestTable\", \"rows\": 10}]}";

    @Test
    void connectingAsksForTheSettledStatusThatStartsTheServersJfrReader() throws Exception {
        List<String> queries = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/status", exchange -> {
            queries.add(String.valueOf(exchange.getRequestURI().getQuery()));
            byte[] body = STATUS.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            RpcTarget target = new RpcTarget(url, null, Duration.ofSeconds(30));
            assertEquals(List.of("gc=settled"), queries);
            assertEquals("zero-copy", target.readPath());
        } finally {
            server.stop(0);
        }
    }
}
