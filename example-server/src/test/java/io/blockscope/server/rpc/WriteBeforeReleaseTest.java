package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule of the HBASE-11425 RPC tier on a real server: the blocks a response is made of stay
 * referenced until the response has been written, and are all returned after.
 *
 * <p>A client with a 4 KB receive buffer asks for a 20 MB scan (2,000 rows of 10 KB in 64 KB blocks)
 * and reads it slowly. At checkpoints where more bytes are still unread than the kernel can buffer
 * on both sides of a loopback connection (4 MB send + 4 KB receive at most here), the server cannot
 * have finished writing; there the server's own count of outstanding block references must be
 * positive and never fall from one checkpoint to the next (no block of the response given back
 * early, as a per-chunk release would). Once the last byte has been read, it must fall to 0.
 */
class WriteBeforeReleaseTest {

    private static final int ROWS = 2_000;
    private static final int VALUE_BYTES = 10_000;
    /** More than the largest loopback send buffer (tcp_wmem max, 4 MB) plus our receive buffer. */
    private static final long UNWRITABLE_TAIL = 5L << 20;

    @TempDir
    Path dir;

    @Test
    void blocksOfAResponseAreHeldUntilItsLastByteIsWritten() throws Exception {
        TableLoader.load(
                dir, new TableSpec("big", ROWS, 1, VALUE_BYTES, ValueDistribution.FIXED, 3, 5), 65536, 2, line -> {});
        try (ServerProcess server = ServerProcess.start(
                dir,
                "256m",
                "--data",
                dir.toString(),
                "--max-response-bytes",
                "64m",
                "--slow-client-timeout",
                "120s",
                "--idle-timeout",
                "120s")) {
            assertEquals(0, server.status().path("blockRefsOutstanding").asLong(-1));
            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(4096);
                socket.connect(new InetSocketAddress("127.0.0.1", server.uri().getPort()), 5_000);
                socket.setSoTimeout(60_000);
                OutputStream out = socket.getOutputStream();
                out.write(("GET /v1/big/scan HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                long contentLength = readHeaders(in);
                assertTrue(
                        contentLength > 3 * UNWRITABLE_TAIL,
                        "the response must be far larger than the socket buffers: " + contentLength);

                List<Long> held = new ArrayList<>();
                long read = 0;
                byte[] buffer = new byte[8192];
                for (long checkpoint = 64 * 1024;
                        checkpoint < contentLength - UNWRITABLE_TAIL;
                        checkpoint += (contentLength - UNWRITABLE_TAIL) / 6) {
                    read += skip(in, buffer, checkpoint - read);
                    Thread.sleep(200); // give a wrongly early release time to show
                    held.add(server.status().path("blockRefsOutstanding").asLong(-1));
                }
                for (int i = 0; i < held.size(); i++) {
                    assertTrue(held.get(i) > 0, "no block held while the response is being written: " + held);
                    assertTrue(
                            i == 0 || held.get(i) >= held.get(i - 1),
                            "blocks given back before their response was written: " + held);
                }
                read += skip(in, buffer, contentLength - read);
                assertEquals(contentLength, read);
            }
            assertEquals(0, server.awaitNoOutstandingReferences(), "blocks not returned after the response");
        }
    }

    /** Reads the status line and headers; returns Content-Length. */
    private static long readHeaders(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("connection closed in the headers: " + head);
            }
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                return Long.parseLong(line.substring(15).trim());
            }
        }
        throw new AssertionError("no Content-Length: " + head);
    }

    private static long skip(InputStream in, byte[] buffer, long count) throws Exception {
        long done = 0;
        while (done < count) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, count - done));
            if (n < 0) {
                break;
            }
            done += n;
        }
        return done;
    }
}
