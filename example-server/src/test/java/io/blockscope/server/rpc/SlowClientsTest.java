package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.region.TestTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 2: slow clients against a server in its own JVM with few request threads. 50
 * slow-loris connections (headers a byte a second), 20 slow senders of multi-get bodies ({@code
 * Expect: 100-continue}, ten bytes a second, reconnecting when cut) and 20 slow readers of 10 MB scan
 * responses (1 KB every 200 ms) attack at once, each group from its own loopback address, while a
 * normal client keeps asking for rows: every answer must come within {@link #MAX_LATENCY_MS}, each
 * slow reader must lose its response within the slow-client timeout (plus slack), and the server
 * must hold no block reference afterwards. A client address past its connection cap is cut off.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlowClientsTest {

    private static final int LORIS = 50;
    private static final int SLOW_SENDERS = 20;
    private static final int SLOW_READERS = 20;
    private static final long SLOW_CLIENT_TIMEOUT_MS = 3_000;
    private static final long MAX_LATENCY_MS = 2_000;
    private static final int PER_CLIENT_CAP = 60;

    @TempDir
    static Path dir;

    private TableSpec small;
    private ServerProcess server;
    private final AtomicBoolean attacking = new AtomicBoolean(true);
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        small = TestTable.smallSpec();
        TestTable.load(dir, small);
        // 1,000 rows of 10 KB: a 10 MB scan response, far more than loopback socket buffers hold.
        TableLoader.load(
                dir, new TableSpec("big", 1_000, 1, 10_000, ValueDistribution.FIXED, 3, 5), 65536, 2, line -> {});
        server = ServerProcess.start(
                dir,
                "256m",
                "--data",
                dir.toString(),
                "--server-threads",
                "8",
                "--max-response-bytes",
                "64m",
                "--max-scan-rows",
                "100000",
                "--slow-client-timeout",
                SLOW_CLIENT_TIMEOUT_MS + "ms",
                "--idle-timeout",
                "30s",
                "--max-connections-per-client",
                Integer.toString(PER_CLIENT_CAP));
    }

    @AfterAll
    void stop() throws Exception {
        attacking.set(false);
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
        server.close();
    }

    private Socket connect(String from) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", server.uri().getPort()), 5_000);
        synchronized (sockets) {
            sockets.add(s);
        }
        return s;
    }

    private Thread daemon(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void slowClientsNeitherStarveOthersNorPinBlocks() throws Exception {
        // Slow readers: a whole-table scan, read 1 KB every 200 ms; each records when it was cut off.
        AtomicLong longestServedNanos = new AtomicLong();
        CountDownLatch responding = new CountDownLatch(SLOW_READERS);
        AtomicReference<String> readerFailure = new AtomicReference<>();
        AtomicInteger readersCut = new AtomicInteger();
        for (int i = 0; i < SLOW_READERS; i++) {
            Socket s = connect("127.0.0.4");
            daemon(new Runnable() {
                long firstByte;

                @Override
                public void run() {
                    try {
                        s.setSoTimeout(60_000);
                        s.getOutputStream()
                                .write("GET /v1/big/scan HTTP/1.1\r\nHost: x\r\n\r\n"
                                        .getBytes(StandardCharsets.US_ASCII));
                        InputStream in = s.getInputStream();
                        byte[] chunk = new byte[1024];
                        while (attacking.get()) {
                            if (in.read(chunk) < 0) {
                                break;
                            }
                            if (firstByte == 0) {
                                firstByte = System.nanoTime();
                                responding.countDown();
                            }
                            Thread.sleep(200);
                        }
                    } catch (Exception e) {
                        // reset by the server: cut off
                        if (firstByte == 0) {
                            readerFailure.compareAndSet(null, e.toString());
                        }
                    }
                    if (firstByte == 0) {
                        responding.countDown();
                    }
                    readersCut.incrementAndGet();
                    if (firstByte != 0) {
                        longestServedNanos.accumulateAndGet(System.nanoTime() - firstByte, Math::max);
                    }
                }
            });
        }

        // The scans themselves are honest work; the attack is what comes after: wait until every
        // slow reader is being sent its response before the normal client starts measuring.
        assertTrue(responding.await(30, TimeUnit.SECONDS), "the slow readers' scans did not start answering");
        assertEquals(null, readerFailure.get(), "a slow reader got nothing at all");
        // Slow loris: a header line that never ends, a byte a second.
        for (int i = 0; i < LORIS; i++) {
            Socket s = connect("127.0.0.2");
            daemon(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    out.write("GET /v1/big/scan HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
                    while (attacking.get()) {
                        out.write('a');
                        out.flush();
                        Thread.sleep(1_000);
                    }
                } catch (Exception e) {
                    // cut off by the server: fine
                }
            });
        }
        // Slow senders: a multi-get body announced, then ten bytes a second; again when cut off.
        AtomicInteger sendersCut = new AtomicInteger();
        for (int i = 0; i < SLOW_SENDERS; i++) {
            daemon(() -> {
                while (attacking.get()) {
                    try (Socket s = connect("127.0.0.3")) {
                        OutputStream out = s.getOutputStream();
                        out.write(("POST /v1/big/multiget HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                        + "Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n{\"rows\":[")
                                .getBytes(StandardCharsets.US_ASCII));
                        while (attacking.get()) {
                            out.write("\"0000000000".getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            Thread.sleep(1_000);
                        }
                    } catch (Exception e) {
                        sendersCut.incrementAndGet();
                    }
                }
            });
        }
        // The normal client keeps getting rows, each within the stated latency.
        int answers = 0;
        long worst = 0;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SLOW_CLIENT_TIMEOUT_MS + 3_000);
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            RpcClient.Reply reply = server.client().get(TestTable.NAME, TableSpec.rowKey(answers % 2_000), true);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(200, reply.status());
            assertEquals(TestTable.expectedRow(small, answers % 2_000), reply.cells());
            worst = Math.max(worst, ms);
            assertTrue(ms < MAX_LATENCY_MS, "a normal get took " + ms + " ms during the attack\n" + server.log());
            answers++;
            Thread.sleep(100);
        }

        // Every slow reader lost its response within the slow-client timeout (plus slack for the
        // scan itself on a busy machine), while still reading; their blocks went back.
        assertEquals(SLOW_READERS, readersCut.get(), "slow readers still being served\n" + server.log());
        // The timeout runs from the start of the response; a reader notices the reset at its next read, and a
        // loaded 2-core machine delays the timer: 2.5 s of slack.
        long cutAfterMs = TimeUnit.NANOSECONDS.toMillis(longestServedNanos.get());
        assertTrue(
                cutAfterMs < SLOW_CLIENT_TIMEOUT_MS + 2_500,
                "a slow reader was still served " + cutAfterMs + " ms after its first bytes");
        assertEquals(0, server.awaitNoOutstandingReferences(), "blocks pinned by slow readers\n" + server.log());
        assertTrue(sendersCut.get() >= SLOW_SENDERS, "slow senders were never cut off: " + sendersCut.get());
        System.out.printf(
                "slow clients: %d gets during the attack, worst %d ms; %d readers cut, at most %d ms after their first bytes;"
                        + " %d slow senders cut%n",
                answers, worst, readersCut.get(), cutAfterMs, sendersCut.get());
        assertTrue(server.isAlive());
    }

    @Test
    void anAddressPastItsConnectionCapIsCutOff() throws Exception {
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < PER_CLIENT_CAP + 2; i++) {
            Socket s = connect("127.0.0.6");
            Thread.sleep(5); // let the server count them in order
            s.setSoTimeout(100);
            held.add(s);
        }
        int closed = 0;
        for (Socket s : held) {
            try {
                if (s.getInputStream().read() < 0) {
                    closed++;
                }
            } catch (SocketTimeoutException e) {
                // still open: within the cap
            } catch (IOException e) {
                closed++;
            }
        }
        assertEquals(2, closed, "connections beyond the per-client cap of " + PER_CLIENT_CAP);
        assertEquals(
                200,
                server.client().get(TestTable.NAME, TableSpec.rowKey(7), true).status());
        for (Socket s : held) {
            s.close();
        }
    }
}
