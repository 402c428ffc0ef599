package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.region.TestTable;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults against a server in its own JVM: every kind of malformed request, clients that vanish or
 * stop reading mid-response, and requests that run out of time. Each must get a clear answer (or
 * be cut off), leak no block reference, and leave the server serving.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RpcFaultTest {

    @TempDir
    static Path dir;

    private TableSpec small;
    private ServerProcess server;
    private ServerProcess impatient;

    @BeforeAll
    void start() throws Exception {
        small = TestTable.smallSpec();
        TestTable.load(dir, small);
        // 4,000 rows of 10 KB: a 40 MB scan response, far more than loopback socket buffers hold.
        TableLoader.load(
                dir, new TableSpec("big", 4_000, 1, 10_000, ValueDistribution.FIXED, 3, 5), 65536, 2, line -> {});
        server = ServerProcess.start(
                dir,
                "256m",
                "--data",
                dir.toString(),
                "--max-response-bytes",
                "64m",
                "--max-scan-rows",
                "100000",
                "--max-multiget",
                "50",
                "--max-request-bytes",
                "4k",
                "--idle-timeout",
                "2s");
        impatient = ServerProcess.start(dir, "256m", "--data", dir.toString(), "--request-timeout", "1ns");
    }

    @AfterEach
    void serversStayUpAndHoldNothing() throws Exception {
        for (ServerProcess s : List.of(server, impatient)) {
            assertEquals(0, s.awaitNoOutstandingReferences(), "block references leaked on " + s.uri() + "\n" + s.log());
            assertTrue(s.isAlive());
            RpcClient.Reply reply = s.client().get(TestTable.NAME, TableSpec.rowKey(5), true);
            assertEquals(TestTable.expectedRow(small, 5), reply.cells());
            assertEquals(0, s.awaitNoOutstandingReferences());
        }
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        impatient.close();
    }

    private record Case(String method, String path, String body, int status, String message) {}

    @Test
    void everyMalformedRequestGetsA4xxSayingWhatWasWrong() throws Exception {
        StringBuilder tooMany = new StringBuilder("{\"rows\":[");
        for (int i = 0; i < 51; i++) {
            tooMany.append(i == 0 ? "" : ",")
                    .append('"')
                    .append(new String(TableSpec.rowKey(i), StandardCharsets.UTF_8))
                    .append('"');
        }
        tooMany.append("]}");
        String huge = "{\"rows\":[\"" + "x".repeat(5000) + "\"]}";
        List<Case> cases = List.of(
                new Case("GET", "/v1/t/get", null, 400, "missing parameter 'row'"),
                new Case("GET", "/v1/t/get?row=", null, 400, "row is empty"),
                new Case("GET", "/v1/t/get?row=zz&keyEncoding=hex", null, 400, "is not valid hex"),
                new Case("GET", "/v1/t/get?row=a&keyEncoding=rot13", null, 400, "unknown keyEncoding 'rot13'"),
                new Case("GET", "/v1/t/get?row=1&row=2", null, 400, "given 2 times"),
                new Case("GET", "/v1/nope/get?row=1", null, 404, "unknown table 'nope'"),
                new Case("GET", "/v1/t/scan?start=5&stop=1", null, 400, "bad range"),
                new Case("GET", "/v1/t/scan?limit=abc", null, 400, "'limit' must be a positive integer"),
                new Case("GET", "/v1/t/scan?maxBytes=0", null, 400, "'maxBytes' must be a positive integer"),
                new Case("GET", "/v1/t/scan?filter=bogus", null, 400, "unknown filter 'bogus'"),
                new Case(
                        "GET",
                        "/v1/t/scan?filter=class:java.lang.String",
                        null,
                        403,
                        "start the server with --allow-filter-classes java.lang.String"),
                new Case("GET", "/v1/t/scan?filter=class:com.example.Missing", null, 403, "not allowed on this server"),
                new Case("GET", "/v1/t/scan?continuation=garbage", null, 400, "continuation token"),
                new Case("GET", "/v1/t/scan?frob=1", null, 400, "unknown parameter 'frob'"),
                new Case("GET", "/v1/t/scan?format=xml", null, 400, "unknown format 'xml'"),
                new Case("POST", "/v1/t/multiget", "not json", 400, "not valid JSON"),
                new Case("POST", "/v1/t/multiget", "", 400, "empty request body"),
                new Case("POST", "/v1/t/multiget", "{\"rows\":\"x\"}", 400, "'rows' array"),
                new Case("POST", "/v1/t/multiget", "{\"rows\":[1,2]}", 400, "rows[0] is number, not a string"),
                new Case("POST", "/v1/t/multiget", "{\"rows\":[],\"extra\":1}", 400, "unknown field 'extra'"),
                new Case("POST", "/v1/t/multiget", "{\"rows\":[]}", 400, "at least one row"),
                new Case("POST", "/v1/t/multiget", tooMany.toString(), 400, "exceeds the limit of 50 rows"),
                new Case("POST", "/v1/t/multiget", huge, 413, "exceeds the limit of 4096 bytes"),
                new Case("POST", "/v1/t/get?row=1", "", 405, "use GET"),
                new Case("DELETE", "/v1/t/multiget", null, 405, "use POST"),
                new Case("GET", "/nowhere", null, 404, "no endpoint GET /nowhere"));
        long errorsBefore = server.status().path("rpc").path("clientErrors").asLong();
        for (Case c : cases) {
            HttpRequest.BodyPublisher body = c.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(c.body());
            HttpResponse<String> response = server.client()
                    .raw(server.client()
                            .request(c.path())
                            .method(c.method(), body)
                            .build());
            assertEquals(c.status(), response.statusCode(), c + " -> " + response.body());
            JsonNode error = new ObjectMapper().readTree(response.body());
            assertEquals(c.status(), error.path("status").asInt());
            assertTrue(
                    error.path("message").asText().contains(c.message()),
                    c + " -> " + error.path("message").asText());
        }
        // java.net.http will not send a malformed URI; a raw client will.
        String raw = rawExchange("GET /v1/t/get?row=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 400"), raw);
        assertTrue(raw.contains("malformed request"), raw);
        assertEquals(
                errorsBefore + cases.size() + 1,
                server.status().path("rpc").path("clientErrors").asLong());
    }

    @Test
    void anAnswerThatLeavesTheBodyUnreadClosesItsConnection() throws Exception {
        // Refused before it is read (413), or sent where no body is read (405): either way the
        // connection cannot carry another request. A client told nothing reuses it, and its next
        // request (a POST, which it will not retry) meets a closed socket.
        for (String head : List.of("POST /v1/t/multiget HTTP/1.1", "POST /v1/t/get?row=1 HTTP/1.1")) {
            String raw = rawExchange(
                    head + "\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n");
            assertTrue(raw.startsWith(head.endsWith("multiget HTTP/1.1") ? "HTTP/1.1 413" : "HTTP/1.1 405"), raw);
            assertTrue(headers(raw).contains("\r\nconnection: close"), raw);
        }
        // An error that leaves nothing unread keeps the connection: the second answer comes on it.
        String both = rawExchange("GET /v1/t/get HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /v1/t/get?row= HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertTrue(both.startsWith("HTTP/1.1 400"), both);
        assertFalse(headers(both).contains("\r\nconnection: close"), both);
        assertTrue(both.contains("row is empty"), both);
    }

    private static String headers(String answer) {
        return answer.substring(0, answer.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
    }

    @Test
    void aClientThatDisconnectsMidResponseLeaksNothing() throws Exception {
        long failedBefore = server.status().path("rpc").path("responsesFailed").asLong();
        try (Socket socket = new Socket(server.uri().getHost(), server.uri().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /v1/big/scan HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[16 * 1024];
            int read = 0;
            while (read < 256 * 1024) {
                int n = in.read(buffer);
                assertTrue(n > 0, "the response ended early");
                read += n;
            }
            String head = new String(buffer, 0, Math.min(64, buffer.length), StandardCharsets.ISO_8859_1);
            assertNotNull(head);
            socket.setSoLinger(true, 0); // close with a reset, as a crashed client would
        }
        awaitFailedResponses(server, failedBefore + 1);
    }

    @Test
    void aClientThatStopsReadingIsCutOffByTheIdleTimeout() throws Exception {
        long failedBefore = server.status().path("rpc").path("responsesFailed").asLong();
        try (Socket socket = new Socket(server.uri().getHost(), server.uri().getPort())) {
            socket.setReceiveBufferSize(64 * 1024);
            socket.getOutputStream()
                    .write(("GET /v1/big/scan HTTP/1.1\r\nHost: localhost\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            // Read nothing: the server's write stalls until its 2 s idle timeout fails it.
            awaitFailedResponses(server, failedBefore + 1);
            assertEquals(0, server.awaitNoOutstandingReferences());
        }
    }

    @Test
    void requestsPastTheirDeadlineFailOrContinueAndGiveBackTheirBlocks() throws Exception {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add(TableSpec.rowKey(i));
        }
        RpcClient.RpcClientException timeout = org.junit.jupiter.api.Assertions.assertThrows(
                RpcClient.RpcClientException.class, () -> impatient.client().multiGet(TestTable.NAME, keys, true));
        assertEquals(503, timeout.status());
        assertTrue(timeout.getMessage().contains("ran past its deadline"), timeout.getMessage());

        // A scan past its deadline returns the rows it has (the deadline is checked every 64 rows) and a continuation.
        List<RpcClient.Reply> replies = impatient
                .client()
                .scanAll(TestTable.NAME, RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(300)));
        assertEquals(5, replies.size());
        assertEquals(63, replies.get(0).rows());
        List<ClientCell> cells = new ArrayList<>();
        replies.forEach(r -> cells.addAll(r.cells()));
        assertEquals(TestTable.expectedRows(small, 0, 300), cells);
    }

    private String rawExchange(String request) throws Exception {
        try (Socket socket = new Socket(server.uri().getHost(), server.uri().getPort())) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void awaitFailedResponses(ServerProcess s, long atLeast) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long failed;
        do {
            failed = s.status().path("rpc").path("responsesFailed").asLong();
            if (failed >= atLeast) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(
                "the server never reported the failed response (responsesFailed=" + failed + ")\n" + s.log());
    }
}
