package io.blockscope.server.storefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.TestBuffers;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class IndexAndBloomTest {

    private static IndexBlock index(String... firstRows) throws CorruptStoreFileException {
        IndexBlockBuilder b = new IndexBlockBuilder();
        for (int i = 0; i < firstRows.length; i++) {
            b.add(firstRows[i].getBytes(), 1000L * i, 100 + i);
        }
        return new IndexBlock(TestBuffers.splitEvery(b.toPayload(), 7), "f", 0);
    }

    @Test
    void seekEntryIsTheLastBlockStartingBeforeTheRow() throws Exception {
        // A row that spans blocks appears as the first row of several blocks in a row.
        IndexBlock idx = index("b", "d", "d", "d", "h");
        assertEquals(0, idx.seekEntry("a".getBytes(), 0, 1), "before everything: the first block");
        assertEquals(0, idx.seekEntry("b".getBytes(), 0, 1));
        assertEquals(0, idx.seekEntry("c".getBytes(), 0, 1));
        assertEquals(0, idx.seekEntry("d".getBytes(), 0, 1), "block 0 may end with cells of d");
        assertEquals(3, idx.seekEntry("e".getBytes(), 0, 1));
        assertEquals(4, idx.seekEntry("z".getBytes(), 0, 1));
        assertEquals(-1, index().seekEntry("a".getBytes(), 0, 1));

        assertEquals(-1, idx.floorEntry("a".getBytes(), 0, 1));
        assertEquals(0, idx.floorEntry("b".getBytes(), 0, 1));
        assertEquals(3, idx.floorEntry("d".getBytes(), 0, 1));
        assertEquals(4, idx.floorEntry("x".getBytes(), 0, 1));

        assertEquals(3000L, idx.blockOffset(3));
        assertEquals(103, idx.blockSize(3));
        assertArrayEquals("h".getBytes(), idx.row(4));
    }

    @Test
    void damagedIndexPayloadsAreReported() throws Exception {
        IndexBlockBuilder b = new IndexBlockBuilder();
        b.add("row".getBytes(), 0, 10);
        byte[] payload = b.toPayload();
        byte[] badCount = payload.clone();
        ByteBuffer.wrap(badCount).putInt(0, 1000);
        CorruptStoreFileException e =
                assertThrows(CorruptStoreFileException.class, () -> new IndexBlock(ByteBuff.wrap(badCount), "f", 77));
        assertTrue(e.getMessage().contains("claims 1000 entries"), e.getMessage());

        byte[] badStart = payload.clone();
        ByteBuffer.wrap(badStart).putInt(4, 2);
        IndexBlock idx = new IndexBlock(ByteBuff.wrap(badStart), "f", 77);
        e = assertThrows(CorruptStoreFileException.class, () -> idx.blockOffset(0));
        assertTrue(e.getMessage().contains("starts at 2, outside the entry area"), e.getMessage());

        byte[] badRow = payload.clone();
        ByteBuffer.wrap(badRow).putShort(8 + 12, (short) 500);
        IndexBlock idx2 = new IndexBlock(ByteBuff.wrap(badRow), "f", 77);
        e = assertThrows(CorruptStoreFileException.class, () -> idx2.seekEntry("a".getBytes(), 0, 1));
        assertTrue(e.getMessage().contains("row of 500 bytes"), e.getMessage());
    }

    @Test
    void bloomSizingFollowsTheTargetRate() {
        RowBloom onePercent = new RowBloom(0.01, 1024);
        // 9.6 bits and 7 probes per row for 1%.
        assertEquals(854, onePercent.maxRowsPerChunk());
        long[] hashes = new long[10];
        byte[] chunk = onePercent.chunk(hashes, 10);
        assertEquals(RowBloom.CHUNK_HEADER + 16, chunk.length, "96 bits rounded up to 128");
        assertEquals(7, ByteBuffer.wrap(chunk).getInt(0));
        assertThrows(IllegalArgumentException.class, () -> new RowBloom(0.6, 1024));
        assertThrows(IllegalArgumentException.class, () -> new RowBloom(0.01, 8));
    }

    @Test
    void bloomChunkHasNoFalseNegativesAndAboutTheTargetRate() {
        RowBloom bloom = new RowBloom(0.01, 16 * 1024);
        int n = bloom.maxRowsPerChunk();
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) {
            byte[] row = ("user" + i).getBytes();
            hashes[i] = RowBloom.hash(row, 0, row.length);
        }
        ByteBuff chunk = ByteBuff.wrap(bloom.chunk(hashes, n));
        for (long h : hashes) {
            assertTrue(RowBloom.mightContain(chunk, h));
        }
        int positives = 0;
        int probes = 50_000;
        for (int i = 0; i < probes; i++) {
            byte[] row = ("other" + i).getBytes();
            positives += RowBloom.mightContain(chunk, RowBloom.hash(row, 0, row.length)) ? 1 : 0;
        }
        double rate = (double) positives / probes;
        assertTrue(rate > 0.005 && rate < 0.015, "false-positive rate " + rate + " of a full chunk at a 1% target");

        ByteBuff empty = ByteBuff.wrap(bloom.chunk(new long[0], 0));
        assertFalse(RowBloom.mightContain(empty, hashes[0]), "an empty chunk holds nothing");
    }

    @Test
    void hashSeesEveryByteAndTheLength() {
        byte[] a = "row-00000001".getBytes();
        byte[] b = "row-00000002".getBytes();
        assertTrue(RowBloom.hash(a, 0, a.length) != RowBloom.hash(b, 0, b.length));
        assertTrue(RowBloom.hash(a, 0, 11) != RowBloom.hash(a, 0, 12), "a prefix hashes differently");
        assertTrue(RowBloom.hash(new byte[3], 0, 3) != RowBloom.hash(new byte[4], 0, 4), "zero bytes count");
        byte[] shifted = ("xx" + new String(a)).getBytes();
        assertEquals(
                RowBloom.hash(a, 0, a.length),
                RowBloom.hash(shifted, 2, a.length),
                "depends on the bytes, not the offset");
    }

    @Test
    void damagedBloomChunkHeaderIsReported() {
        byte[] chunk = new RowBloom(0.01, 1024).chunk(new long[] {1, 2, 3}, 3);
        ByteBuffer.wrap(chunk).putInt(4, 1 << 20);
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> RowBloom.mightContain(ByteBuff.wrap(chunk), 5));
        assertTrue(e.getMessage().contains("does not match"), e.getMessage());
    }
}
