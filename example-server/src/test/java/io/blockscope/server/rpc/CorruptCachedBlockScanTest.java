package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.TestTable;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 5 (Region.scan's first seek): blocks damaged in the L2 cache file of a running
 * server, where no store-file checksum guards them. A scan whose first seek fails inside such a block
 * must give that block back: the cursor is not in the merge heap yet, so only the new {@code finally}
 * around the seek closes it. The server answers 500 and holds no reference afterwards.
 */
class CorruptCachedBlockScanTest {

    @TempDir
    Path dir;

    @Test
    void aSeekThatFailsInACachedBlockReleasesIt() throws Exception {
        TestTable.load(dir, TestTable.smallSpec());
        Path cacheFile = dir.resolve("l2.cache");
        try (ServerProcess server = ServerProcess.start(
                dir,
                "128m",
                "--data",
                dir.toString(),
                "--deploy",
                "cbc-file",
                "--cache-file",
                cacheFile.toString(),
                "--warm")) {
            assertEquals(0, server.awaitNoOutstandingReferences());
            garble(cacheFile);
            int failures = 0;
            for (int start = 100; start < 2_000; start += 300) {
                HttpResponse<String> r = server.client()
                        .raw(server.client()
                                .request("/v1/t/scan?limit=5&format=json&start=" + new String(TableSpec.rowKey(start)))
                                .GET()
                                .build());
                assertTrue(r.statusCode() == 200 || r.statusCode() == 500, r.statusCode() + " " + r.body());
                failures += r.statusCode() == 500 ? 1 : 0;
                assertEquals(
                        0,
                        server.awaitNoOutstandingReferences(),
                        "a failed scan kept a block (start row " + start + ")\n" + server.log());
            }
            assertTrue(failures > 0, "no scan ran into the damage");
            assertTrue(server.isAlive());
        }
    }

    /** Overwrites the cache file's cached bytes with 0xFF: every data block in L2 is garbage now. */
    private static void garble(Path file) throws Exception {
        long size = Files.size(file);
        byte[] junk = new byte[64 * 1024];
        Arrays.fill(junk, (byte) 0xff);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += junk.length) {
                ch.write(ByteBuffer.wrap(junk, 0, (int) Math.min(junk.length, size - at)), at);
            }
        }
    }
}
