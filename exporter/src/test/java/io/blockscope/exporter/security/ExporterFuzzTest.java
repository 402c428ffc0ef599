package io.blockscope.exporter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.MalformedRequests;
import io.blockscope.exporter.testing.RawHttp;
import io.blockscope.exporter.testing.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 5, the agent's endpoint: thousands of seeded malformed requests, and each odd
 * request by name, against a host JVM serving plain HTTP and one serving HTTPS. Every answer is a
 * 2xx-4xx or a clean close, never a 5xx, a stack trace or a hang; afterwards the host serves and has
 * no more threads than before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExporterFuzzTest {

    private static final long SEED = 18L;
    /** Threads that come and go with load: the exporter's bounded pool and the JIT's compilers. */
    private static final String[] POOLS = {"blockscope-exp", "CompilerThre"};

    private static final int PLAIN_REQUESTS = 2_000;
    private static final int TLS_REQUESTS = 400;
    private static final List<String> PATHS = List.of("/metrics", "/-/healthy", "/", "/metrics?name[]=jvm_info");

    @TempDir
    static Path dir;

    private HostProcess plain;
    private HostProcess tls;
    private SSLContext trustAll;

    @BeforeAll
    void start() throws Exception {
        TestCertificates server = TestCertificates.generate(dir, "fuzz");
        plain = HostProcess.start(Map.of(), List.of(), "jfr=off", "threads=4");
        tls = HostProcess.start(
                Map.of(),
                List.of(),
                "jfr=off",
                "threads=4",
                "tls.cert=" + server.certPem(),
                "tls.key=" + server.keyPem());
        trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
    }

    @AfterAll
    void stop() throws Exception {
        plain.close();
        tls.close();
    }

    @Test
    void seededMalformedRequestsGetNoServerErrorAndLeaveNoThreads() throws Exception {
        // Warm up first: the serving pool grows to its bound and the JIT starts its compiler threads, so
        // that what is counted afterwards is what the malformed requests themselves leave behind.
        warmUp(plain, null);
        warmUp(tls, trustAll);
        int threadsBefore = settledThreads(plain, Integer.MAX_VALUE);
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> jettyEchoes = new ArrayList<>();
        MalformedRequests requests = new MalformedRequests(SEED, PATHS);
        byte[] previous = new byte[0];
        for (int i = 0; i < PLAIN_REQUESTS; i++) {
            byte[] request = requests.next();
            RawHttp.Answer answer = RawHttp.send(null, plain.port(), request, 5_000);
            assertAcceptable(answer, request, previous, i, jettyEchoes);
            statuses.merge(answer.status, 1, Integer::sum);
            previous = request;
        }
        int tlsThreadsBefore = settledThreads(tls, Integer.MAX_VALUE);
        for (int i = 0; i < TLS_REQUESTS; i++) {
            byte[] request = requests.next();
            RawHttp.Answer answer = overTls(tls.port(), request);
            assertAcceptable(answer, request, previous, i, jettyEchoes);
            statuses.merge(answer.status, 1, Integer::sum);
            previous = request;
        }
        System.out.println(
                "exporter fuzz: seed " + SEED + ", status -> count " + statuses + ", Jetty echoes " + jettyEchoes);
        // Jetty's echoes (RawHttp.Answer.echoes) come at most once a run; more would mean they got
        // common, and that is worth a look.
        assertTrue(jettyEchoes.size() <= 2, "answers made of request bytes: " + jettyEchoes);
        assertTrue(statuses.keySet().stream().anyMatch(s -> s >= 400), "the fuzzer produced no error at all");
        assertServing(plain);
        assertTrue(
                settledThreads(plain, threadsBefore) <= threadsBefore,
                "threads left behind: " + plain.threadsOutside(POOLS));
        assertTrue(settledThreads(tls, tlsThreadsBefore) <= tlsThreadsBefore, "threads left behind over TLS");
        assertFalse(plain.stderr().contains("\tat "), "stack trace in the host's log:\n" + plain.stderr());
        assertFalse(tls.stderr().contains("\tat "), "stack trace in the host's log:\n" + tls.stderr());
    }

    @Test
    void oddRequestsGetAFourHundredOrACleanClose() throws Exception {
        Map<String, byte[]> odd = new LinkedHashMap<>();
        odd.put("CONNECT", RawHttp.bytes("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n"));
        odd.put("OPTIONS *", RawHttp.bytes("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("TRACE", RawHttp.bytes("TRACE /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("bad percent-encoding", RawHttp.bytes("GET /metrics?name[]=%zz%c0 HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put("bad path encoding", RawHttp.bytes("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n"));
        odd.put(
                "huge headers",
                RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: " + "a".repeat(64 * 1024) + "\r\n\r\n"));
        odd.put("HTTP/0.9", RawHttp.bytes("GET /metrics\r\n"));
        odd.put("HTTP/2 prior knowledge", RawHttp.bytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
        odd.put("TLS ClientHello to the plain port", clientHello());
        for (Map.Entry<String, byte[]> e : odd.entrySet()) {
            RawHttp.Answer answer = RawHttp.send(null, plain.port(), e.getValue(), 5_000);
            assertTrue(
                    answer.status == 0 || (answer.status >= 400 && answer.status < 500), e.getKey() + " got " + answer);
        }
        // plain HTTP to the TLS port: the TLS layer refuses it (an alert or a close), nothing is served
        RawHttp.Answer plainToTls =
                RawHttp.send(null, tls.port(), RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), 5_000);
        assertTrue(
                plainToTls.status == 0 || plainToTls.status == 1 || plainToTls.status == 400,
                "plain to TLS got " + plainToTls);
        assertFalse(plainToTls.text.contains("jvm_"), "metrics served over plain HTTP on the TLS port");
        assertServing(plain);
        assertFalse(plain.stderr().contains("\tat "), plain.stderr());
    }

    /** Asserts the answer is acceptable, or adds it to {@code echoes} if it is Jetty's echo. */
    private static void assertAcceptable(
            RawHttp.Answer answer, byte[] request, byte[] previous, int index, List<String> echoes) {
        if (answer.echoes(request) || answer.echoes(previous)) {
            echoes.add("request " + index + ": " + answer.text.length() + " bytes of a request");
            return;
        }
        String shown =
                new String(request, 0, Math.min(request.length, 300), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(
                answer.status == 0 || (answer.status >= 100 && answer.status < 500),
                "request " + index + " got " + answer + ":\n" + shown);
        assertFalse(answer.text.contains("\tat ") || answer.text.contains("Exception"), "stack trace:\n" + answer.text);
    }

    private static void assertServing(HostProcess host) throws IOException {
        assertTrue(host.isAlive());
        assertEquals(
                200,
                RawHttp.send(null, host.port(), RawHttp.bytes("GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n"), 5_000)
                        .status);
    }

    private void warmUp(HostProcess host, SSLContext tlsContext) throws Exception {
        // The live page starts its one sampler thread on its first request: open it now, so the
        // count afterwards is about what the malformed requests leave.
        byte[] page = RawHttp.bytes("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        if (tlsContext == null) {
            RawHttp.send(null, host.port(), page, 5_000);
        } else {
            overTls(host.port(), page);
        }
        MalformedRequests warmUp = new MalformedRequests(SEED + 1, PATHS);
        List<Thread> scrapers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread scraper = new Thread(() -> {
                for (int i = 0; i < 40; i++) {
                    try {
                        byte[] get = RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                        if (tlsContext == null) {
                            RawHttp.send(null, host.port(), get, 5_000);
                        } else {
                            overTls(host.port(), get);
                        }
                    } catch (IOException e) {
                        // counted by the test proper, not here
                    }
                }
            });
            scraper.start();
            scrapers.add(scraper);
        }
        for (int i = 0; i < 200; i++) {
            byte[] request = warmUp.next();
            if (tlsContext == null) {
                RawHttp.send(null, host.port(), request, 5_000);
            } else {
                overTls(host.port(), request);
            }
        }
        for (Thread scraper : scrapers) {
            scraper.join();
        }
    }

    /** The host's thread count once it has not been above {@code ceiling} for a moment (pools shrink lazily). */
    private static int settledThreads(HostProcess host, int ceiling) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int threads = host.threadsOutside(POOLS);
        while (threads > ceiling && System.nanoTime() < deadline) {
            Thread.sleep(500);
            threads = host.threadsOutside(POOLS);
        }
        return threads;
    }

    private RawHttp.Answer overTls(int port, byte[] request) throws IOException {
        try (Socket raw = new Socket()) {
            raw.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            raw.setSoTimeout(5_000);
            SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket(raw, "127.0.0.1", port, true);
            socket.startHandshake();
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
                socket.shutdownOutput(); // TLS 1.3 half-close: the server sees the end of the request
            } catch (IOException e) {
                // closed early: read what was said
            }
            try {
                return RawHttp.read(socket.getInputStream());
            } catch (javax.net.ssl.SSLException e) {
                return new RawHttp.Answer(0, "closed");
            }
        } catch (java.net.SocketTimeoutException e) {
            return new RawHttp.Answer(-1, "timeout");
        }
    }

    /** A real TLS ClientHello, as a TLS client would open with. */
    private byte[] clientHello() throws Exception {
        SSLEngine engine = trustAll.createSSLEngine("127.0.0.1", 1);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
