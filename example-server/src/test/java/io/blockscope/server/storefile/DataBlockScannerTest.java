package io.blockscope.server.storefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.TestBuffers;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.CellComparator;
import io.blockscope.server.cell.Cells;
import io.blockscope.server.cell.KeyValueCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class DataBlockScannerTest {

    private static final BlockCacheKey KEY = new BlockCacheKey("/data/t.sf", 4242);
    /** Rows b, d (two cells), f. */
    private static final List<ArrayCell> CELLS = List.of(
            ArrayCell.of("b".getBytes(), "f".getBytes(), "q".getBytes(), 1, "1".getBytes()),
            ArrayCell.of("d".getBytes(), "f".getBytes(), "q1".getBytes(), 1, "2".getBytes()),
            ArrayCell.of("d".getBytes(), "f".getBytes(), "q2".getBytes(), 1, "3".getBytes()),
            ArrayCell.of("f".getBytes(), "f".getBytes(), "q".getBytes(), 1, "4".getBytes()));

    private static byte[] payload() {
        List<byte[]> parts = new ArrayList<>();
        int total = 0;
        for (ArrayCell c : CELLS) {
            byte[] b = KeyValueCodec.toBytes(c);
            parts.add(b);
            total += b.length;
        }
        byte[] out = new byte[total];
        int at = 0;
        for (byte[] b : parts) {
            System.arraycopy(b, 0, out, at, b.length);
            at += b.length;
        }
        return out;
    }

    private static DataBlockScanner scanner(ByteBuff data, Block.MemoryType type) {
        return new DataBlockScanner(new Block(BlockType.DATA, data, type), KEY);
    }

    @Test
    void walksEveryCellThenStops() throws Exception {
        DataBlockScanner s = scanner(ByteBuff.wrap(payload()), Block.MemoryType.EXCLUSIVE);
        for (ArrayCell expected : CELLS) {
            assertTrue(s.hasNext());
            assertTrue(Cells.equals(expected, s.next()));
        }
        assertFalse(s.hasNext());
        assertThrows(NoSuchElementException.class, s::next);
    }

    @Test
    void seeksToTheFirstCellAtOrAfterARowInBothDirections() throws Exception {
        DataBlockScanner s = scanner(TestBuffers.split(payload(), true, 30, 3), Block.MemoryType.SHARED);
        assertTrue(s.seekToRow("d".getBytes()));
        assertTrue(Cells.equals(CELLS.get(1), s.next()), "the first cell of row d");
        assertTrue(s.seekToRow("d".getBytes()), "seeking the current row again goes back to its first cell");
        assertTrue(Cells.equals(CELLS.get(1), s.next()));
        assertTrue(s.seekToRow("e".getBytes()));
        assertTrue(CellComparator.matchingRow(s.next(), "f".getBytes()));
        assertTrue(s.seekToRow("a".getBytes()), "backwards");
        assertTrue(Cells.equals(CELLS.get(0), s.next()));
        assertTrue(s.seekToRow("c".getBytes()));
        assertEquals(KeyValueCodec.toBytes(CELLS.get(0)).length, s.position());
        assertFalse(s.seekToRow("g".getBytes()), "every row sorts before g");
        assertFalse(s.hasNext());
        s.rewind();
        assertTrue(Cells.equals(CELLS.get(0), s.next()));
    }

    @Test
    void cellKindFollowsTheBlock() throws Exception {
        assertInstanceOf(
                ArrayCell.class,
                scanner(ByteBuff.wrap(payload()), Block.MemoryType.EXCLUSIVE).next(),
                "an exclusive heap copy: cells point into its array");
        assertInstanceOf(
                BufferedKeyValue.class,
                scanner(ByteBuff.wrap(payload()), Block.MemoryType.SHARED).next(),
                "shared heap cache memory");
        assertInstanceOf(
                BufferedKeyValue.class,
                scanner(TestBuffers.direct(payload()), Block.MemoryType.EXCLUSIVE)
                        .next());
        DataBlockScanner straddling = scanner(TestBuffers.straddling(payload(), 20), Block.MemoryType.SHARED);
        Cell first = straddling.next();
        assertInstanceOf(ArrayCell.class, first, "a cell across two buckets is copied");
        assertInstanceOf(BufferedKeyValue.class, straddling.next());
    }

    @Test
    void malformedCellsFailWithFileAndBlock() {
        byte[] bad = payload();
        bad[KeyValueCodec.toBytes(CELLS.get(0)).length + 3] = 1; // second cell's key length: +1
        DataBlockScanner s = scanner(ByteBuff.wrap(bad), Block.MemoryType.EXCLUSIVE);
        CorruptStoreFileException e = assertThrows(CorruptStoreFileException.class, () -> {
            while (s.hasNext()) {
                s.next();
            }
        });
        assertTrue(
                e.getMessage().contains("/data/t.sf is corrupt at offset 4242: malformed cell at payload index"),
                e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new DataBlockScanner(
                        new Block(BlockType.INDEX, ByteBuff.wrap(payload()), Block.MemoryType.EXCLUSIVE), KEY));
    }
}
