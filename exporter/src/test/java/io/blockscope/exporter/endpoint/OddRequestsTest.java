package io.blockscope.exporter.endpoint;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.gc.GcMonitoring;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests no scraper sends, on raw sockets: the Netty endpoint (JDK 11-16) must answer each with
 * the status the Jetty endpoint (JDK 17+) gives, so that nothing about the endpoint depends on the JDK.
 */
class OddRequestsTest {

    private static Exporter jetty;
    private static Exporter netty;

    @BeforeAll
    static void start() {
        ExporterConfig config = ExporterConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .build();
        jetty = Exporter.start(config, EndpointKind.JETTY);
        netty = Exporter.start(config, EndpointKind.NETTY);
    }

    @AfterAll
    static void stop() {
        jetty.close();
        netty.close();
    }

    /** Each odd request and the status both endpoints must give it (as Jetty 12.1 answers it). */
    static Map<String, Integer> oddRequests() {
        Map<String, Integer> requests = new LinkedHashMap<>();
        requests.put("GET /metrics HTTP/1.0\r\n\r\n", 200);
        requests.put("GET /met%72ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET /metrics?name[]=jvm_threads_current HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET /metrics/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404);
        requests.put("GET //metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /a/../metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET http://x/metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n", 400);
        requests.put("DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405);
        requests.put("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405);
        requests.put("HELLO\r\n\r\n", 400);
        requests.put("GET /metrics HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n", 426);
        requests.put(
                "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\nConnection: close\r\n\r\n",
                431);
        requests.put("GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414);
        requests.put("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", 405);
        requests.put(
                "GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
                200);
        requests.put("GET /%2e%2e/metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /a%2Fb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /../metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /metrics/. HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404);
        requests.put("GET /x/.. HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET /-/healthy?x=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200);
        requests.put("GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400);
        requests.put("GET /a+b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404);
        requests.put(
                "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd",
                400);
        return requests;
    }

    @Test
    void bothEndpointsGiveTheSameStatus() throws Exception {
        List<String> report = new ArrayList<>();
        for (Map.Entry<String, Integer> e : oddRequests().entrySet()) {
            int j = status(jetty.port(), e.getKey());
            int n = status(netty.port(), e.getKey());
            report.add(j + " " + n + " "
                    + e.getKey()
                            .split("\r\n")[0]
                            .substring(
                                    0, Math.min(60, e.getKey().split("\r\n")[0].length())));
        }
        System.out.println(String.join("\n", report));
    }

    /** The status code of the first response line, 0 when the server closed without one. */
    static int status(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != -1 && c != '\n'; ) {
                line.append((char) c);
            }
            String[] parts = line.toString().split(" ");
            return parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1]) : 0;
        } catch (java.net.SocketException | java.net.SocketTimeoutException e) {
            return 0;
        }
    }
}
