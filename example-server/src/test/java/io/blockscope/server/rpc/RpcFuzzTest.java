package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.MalformedRequests;
import io.blockscope.exporter.testing.RawHttp;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.TestTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 5, the RPC endpoint: 2,000 seeded malformed requests and each odd request by
 * name against a server in its own JVM. Every answer is a 2xx-4xx or a clean close, never a 5xx, a
 * stack trace or a hang; afterwards the server serves, holds no block reference and has no more
 * threads than before (outside the request pool, which is bounded and shrinks when idle, and the JIT's).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RpcFuzzTest {

    private static final long SEED = 18L;
    /** Threads that come and go with load: Jetty's request pool ("rpc-N") and the JIT's compilers. */
    private static final String[] POOLS = {"rpc-", "CompilerThre"};

    private static final int REQUESTS = 2_000;
    private static final List<String> PATHS = List.of(
            "/healthz",
            "/status",
            "/v1/tables",
            "/v1/t/get?row=00000000000000000000000001",
            "/v1/t/get?row=MDAw&keyEncoding=base64",
            "/v1/t/scan?limit=5",
            "/v1/t/scan?limit=5&filter=10pct&format=json",
            "/v1/t/scan?start=00000000000000000000000010&stop=00000000000000000000000020",
            "/v1/t/multiget",
            "/v1/t/multiget?row=00000000000000000000000003&row=x",
            "/v1/nope/get?row=1");

    @TempDir
    static Path dir;

    private ServerProcess server;

    @BeforeAll
    void start() throws Exception {
        TestTable.load(dir, TestTable.smallSpec());
        server = ServerProcess.start(dir, "128m", "--data", dir.toString(), "--slow-client-timeout", "2s");
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    @Test
    void seededMalformedRequestsGetNoServerErrorAndLeaveNothingBehind() throws Exception {
        // Warm up with as many requests of another seed, so that the request pool and the JIT have
        // grown to what this traffic needs before threads are counted.
        MalformedRequests warmUp = new MalformedRequests(SEED + 1, PATHS);
        for (int i = 0; i < REQUESTS; i++) {
            RawHttp.send(null, server.uri().getPort(), warmUp.next(), 5_000);
        }
        int threadsBefore = settledThreads(Integer.MAX_VALUE);
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> jettyEchoes = new ArrayList<>();
        MalformedRequests requests = new MalformedRequests(SEED, PATHS);
        byte[] previous = new byte[0];
        for (int i = 0; i < REQUESTS; i++) {
            byte[] request = requests.next();
            RawHttp.Answer answer = RawHttp.send(null, server.uri().getPort(), request, 5_000);
            String shown = new String(request, 0, Math.min(request.length, 300), StandardCharsets.ISO_8859_1);
            if (answer.echoes(request) || answer.echoes(previous)) {
                jettyEchoes.add("request " + i + ": " + answer.text.length() + " bytes of a request");
            } else {
                assertTrue(
                        answer.status == 0 || (answer.status >= 100 && answer.status < 500),
                        "request " + i + " got " + answer + ":\n" + shown);
            }
            previous = request;
            assertFalse(answer.text.contains("\tat "), "stack trace:\n" + answer.text);
            statuses.merge(answer.status, 1, Integer::sum);
        }
        System.out.println(
                "rpc fuzz: seed " + SEED + ", status -> count " + statuses + ", Jetty echoes " + jettyEchoes);
        // Jetty's echoes (RawHttp.Answer.echoes) come at most once a run; more would mean they got
        // common, and that is worth a look.
        assertTrue(jettyEchoes.size() <= 2, "answers made of an earlier request's bytes: " + jettyEchoes);
        assertTrue(statuses.keySet().stream().anyMatch(s -> s >= 400), "the fuzzer produced no error at all");
        assertTrue(server.isAlive());
        assertEquals(0, server.awaitNoOutstandingReferences());
        assertEquals(0, server.status().path("rpc").path("serverErrors").asLong());
        assertEquals(
                200,
                server.client().get(TestTable.NAME, TableSpec.rowKey(3), true).status());
        int threadsAfter = settledThreads(threadsBefore);
        assertTrue(threadsAfter <= threadsBefore, "threads before " + threadsBefore + ", after " + threadsAfter);
        assertFalse(server.log().contains("\tat "), "stack trace in the server log:\n" + server.log());
    }

    @Test
    void oddRequestsGetAFourHundredOrACleanClose() throws Exception {
        Map<String, byte[]> odd = new LinkedHashMap<>();
        odd.put("CONNECT", RawHttp.bytes("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n"));
        odd.put("OPTIONS *", RawHttp.bytes("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("TRACE", RawHttp.bytes("TRACE /v1/t/get?row=1 HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("bad percent-encoding", RawHttp.bytes("GET /v1/t/get?row=%zz HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("bad path encoding", RawHttp.bytes("GET /v1/%zz/get?row=1 HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put(
                "huge headers",
                RawHttp.bytes("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + "a".repeat(64 * 1024) + "\r\n\r\n"));
        odd.put("HTTP/0.9", RawHttp.bytes("GET /healthz\r\n"));
        odd.put("HTTP/2 prior knowledge", RawHttp.bytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
        odd.put("TLS ClientHello", clientHello());
        odd.put(
                "chunked body past the limit",
                RawHttp.bytes("POST /v1/t/multiget HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "200000\r\n" + "x".repeat(0x200000) + "\r\n0\r\n\r\n"));
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : odd.entrySet()) {
            RawHttp.Answer answer = RawHttp.send(null, server.uri().getPort(), e.getValue(), 5_000);
            if (!(answer.status == 0 || (answer.status >= 400 && answer.status < 500))) {
                wrong.add(e.getKey() + " got " + answer);
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(0, server.awaitNoOutstandingReferences());
        assertTrue(server.isAlive());
    }

    private int settledThreads(int ceiling) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int threads = server.threadsOutside(POOLS);
        while (threads > ceiling && System.nanoTime() < deadline) {
            Thread.sleep(500);
            threads = server.threadsOutside(POOLS);
        }
        return threads;
    }

    private static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("127.0.0.1", 1);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }
}
