package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.TestTable;
import io.blockscope.server.storefile.StoreFileReader;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 5: a store file damaged under a running server. Scans that run into the damaged
 * block fail with a 500 whose message names the file and the block's offset, give back every block
 * they held (0 outstanding references), and the server keeps serving the rows it can read.
 */
class CorruptStoreFileScanTest {

    @TempDir
    Path dir;

    @Test
    void aScanIntoADamagedBlockSaysWhereAndHoldsNothing() throws Exception {
        TableSpec spec = TestTable.smallSpec();
        TestTable.load(dir, spec);
        Path file = dir.resolve(TestTable.NAME).resolve("storefile-0");
        long victim;
        try (StoreFileReader reader = StoreFileReader.open(file)) {
            // a byte in the middle of the data section: inside some data block the scan has not read yet
            victim = reader.firstDataBlockOffset() + reader.info().dataSectionBytes() / 2;
        }
        try (ServerProcess server = ServerProcess.start(dir, "128m", "--data", dir.toString())) {
            // a scan is under way: its first pages are read (and cached) before the damage
            RpcClient.Reply first = server.client()
                    .scan(TestTable.NAME, RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(100)), null, true);
            assertEquals(200, first.status());
            flip(file, victim);

            for (int attempt = 0; attempt < 3; attempt++) {
                HttpResponse<String> r = server.client()
                        .raw(server.client()
                                .request("/v1/t/scan?format=json&start=" + new String(TableSpec.rowKey(100)))
                                .GET()
                                .build());
                assertEquals(500, r.statusCode(), r.body());
                JsonNode error = new ObjectMapper().readTree(r.body());
                assertEquals("read_failed", error.path("error").asText());
                String message = error.path("message").asText();
                assertTrue(message.contains(file.toString()) || message.contains("storefile-0"), message);
                assertTrue(message.matches(".*is corrupt at offset \\d+.*"), message);
                assertEquals(0, server.awaitNoOutstandingReferences(), "a failed scan kept blocks\n" + server.log());
            }
            // rows before the damage are still served
            RpcClient.Reply row = server.client().get(TestTable.NAME, TableSpec.rowKey(5), true);
            assertEquals(TestTable.expectedRow(spec, 5), row.cells());
            assertEquals(0, server.awaitNoOutstandingReferences());
            assertTrue(server.isAlive());
        }
    }

    private static void flip(Path file, long offset) throws Exception {
        byte[] one = new byte[1];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.read(ByteBuffer.wrap(one), offset);
            one[0] ^= 0x10;
            ch.write(ByteBuffer.wrap(one), offset);
        }
    }
}
