package io.blockscope.server.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.KeyValueCodec;
import io.blockscope.server.cell.KeyValueFormat;
import io.blockscope.server.storefile.CorruptStoreFileException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The block cursor reads back exactly the cells written, as views of cache memory or as cells on a
 * heap copy, with and without the scan's sweep, also when a cell straddles two bucket buffers; and
 * a header whose lengths run past the block is reported as corruption at that cell, never read.
 */
class BlockCellsTest {

    private static final BlockCacheKey KEY = new BlockCacheKey("f1", 4096);

    enum Layout {
        /** A zero-copy hit: a view of one offheap bucket buffer. */
        DIRECT,
        /** A copy-mode hit: an exclusive copy on the heap. */
        HEAP_COPY,
        /** A zero-copy hit on a block that crosses from one 4 MB buffer into the next. */
        TWO_BUFFERS;

        Block block(byte[] payload) {
            return switch (this) {
                case DIRECT -> {
                    ByteBuffer direct = ByteBuffer.allocateDirect(payload.length);
                    direct.put(0, payload);
                    yield new Block(BlockType.DATA, ByteBuff.wrap(direct), Block.MemoryType.SHARED);
                }
                case HEAP_COPY -> new Block(BlockType.DATA, ByteBuff.wrap(payload.clone()), Block.MemoryType.EXCLUSIVE);
                case TWO_BUFFERS -> {
                    int split = payload.length / 2 + 3; // inside a cell
                    ByteBuffer first = ByteBuffer.allocateDirect(split);
                    ByteBuffer second = ByteBuffer.allocateDirect(payload.length - split);
                    first.put(0, payload, 0, split);
                    second.put(0, payload, split, payload.length - split);
                    yield new Block(BlockType.DATA, ByteBuff.wrap(first, second), Block.MemoryType.SHARED);
                }
            };
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void readsBackEveryCell(Layout layout) throws Exception {
        List<ArrayCell> written = cells(40);
        for (boolean scanning : new boolean[] {false, true}) {
            BlockCells cells = new BlockCells(layout.block(payload(written)), KEY);
            if (scanning) {
                cells.scanning();
            }
            List<byte[]> read = new ArrayList<>();
            while (cells.hasNext()) {
                Cell cell = cells.next();
                if (layout == Layout.HEAP_COPY) {
                    assertInstanceOf(ArrayCell.class, cell, "a heap copy's cells are array cells");
                } else if (layout == Layout.DIRECT) {
                    assertInstanceOf(BufferedKeyValue.class, cell, "cache memory is read in place");
                }
                read.add(KeyValueCodec.toBytes(cell));
            }
            assertEquals(written.size(), read.size(), layout + ", scanning " + scanning);
            for (int i = 0; i < written.size(); i++) {
                assertArrayEquals(KeyValueCodec.toBytes(written.get(i)), read.get(i), "cell " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCellRunningPastTheBlockIsCorruption(Layout layout) throws Exception {
        List<ArrayCell> written = cells(6);
        byte[] payload = payload(written);
        int last = payload.length - written.get(5).serializedLength();
        // The last cell's value length grows by one byte: its header now claims a byte the block lacks.
        int valueLengthAt = last + KeyValueFormat.VALUE_LENGTH_OFFSET;
        ByteBuffer.wrap(payload).putInt(valueLengthAt, ByteBuffer.wrap(payload).getInt(valueLengthAt) + 1);
        BlockCells cells = new BlockCells(layout.block(payload), KEY);
        cells.scanning();
        for (int i = 0; i < 5; i++) {
            cells.next();
        }
        assertTrue(cells.hasNext());
        CorruptStoreFileException e = assertThrows(CorruptStoreFileException.class, cells::next);
        assertTrue(e.getMessage().contains("payload index " + last), e.getMessage());
        assertTrue(e.getMessage().contains("f1"), "names the file: " + e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aNegativeLengthIsCorruption(Layout layout) {
        byte[] payload = payload(cells(3));
        ByteBuffer.wrap(payload).putInt(KeyValueFormat.VALUE_LENGTH_OFFSET, -5);
        BlockCells cells = new BlockCells(layout.block(payload), KEY);
        CorruptStoreFileException e = assertThrows(CorruptStoreFileException.class, cells::next);
        assertTrue(e.getMessage().contains("payload index 0"), e.getMessage());
    }

    private static List<ArrayCell> cells(int count) {
        List<ArrayCell> cells = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] row = String.format("row-%08d", i).getBytes(StandardCharsets.US_ASCII);
            byte[] value = new byte[(i * 37) % 300 + 1];
            value[0] = (byte) i;
            cells.add(ArrayCell.of(
                    row,
                    "f".getBytes(StandardCharsets.US_ASCII),
                    new byte[] {(byte) ('0' + i % 10)},
                    1_000 + i,
                    value));
        }
        return cells;
    }

    private static byte[] payload(List<ArrayCell> cells) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ArrayCell cell : cells) {
            out.writeBytes(KeyValueCodec.toBytes(cell));
        }
        return out.toByteArray();
    }
}
