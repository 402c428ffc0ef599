package io.blockscope.server.region;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.KeyValueCodec;
import io.blockscope.server.cell.KeyValueFormat;
import io.blockscope.server.cell.MalformedCellException;
import io.blockscope.server.storefile.CorruptStoreFileException;

import java.nio.ByteBuffer;

/**
 * A cursor over the cells of one data block, for the region's seeks and scans.
 *
 * <p>It does what the store file package's {@code DataBlockScanner} does, with one difference that
 * matters on the zero-copy path: a seek compares rows in place with {@link KeyCompare} (word reads,
 * no allocation) instead of going through slices of the block's buffer, which allocate when the
 * block is offheap. A seek touches up to a block's worth of cells, so this is the difference
 * between a get that allocates nothing but its result and one that allocates kilobytes.
 *
 * <p>Cells are made the same way: {@link KeyValueCodec#decodeBuffered} (a view, no copy) for shared
 * or direct blocks, {@link KeyValueCodec#decode} for an exclusive heap copy. Not thread-safe.
 */
final class BlockCells {

    private final ByteBuff data;
    /** The block's size, read once: {@code hasNext()} runs per cell. */
    private final int end;
    private final boolean views;
    private final BlockCacheKey key;
    private int position;

    BlockCells(Block block, BlockCacheKey key) {
        this.data = block.data();
        this.end = data.capacity();
        this.views = data.isDirect() || block.memoryType() == Block.MemoryType.SHARED;
        this.key = key;
    }

    /** Sink for {@link #touchAll()}'s reads, so the JIT cannot drop them. */
    private static volatile long touched;

    /**
     * Reads one word per cache line of the whole block, front to back. A scan then parses cells
     * from cache instead of stalling on one miss per cell: cells of ~1 KB sit a kilobyte apart,
     * a stride the hardware prefetchers barely follow, while a front-to-back sweep streams at full
     * memory bandwidth. It is what the copy read path gets for free from its block copy, without
     * the copy.
     */
    void touchAll() {
        // Straight over each NIO buffer of the view: a MultiByteBuff read per line would look up
        // its piece every time, and the loop should be nothing but independent loads.
        long sum = 0;
        for (int i = 0; i < end; ) {
            ByteBuffer buffer = data.bufferAt(i);
            int from = data.positionOf(i);
            int run = Math.min(buffer.capacity() - from, end - i);
            int last = from + run - Long.BYTES;
            for (int p = from; p <= last; p += 64) {
                sum += buffer.getLong(p);
            }
            i += run;
        }
        touched = sum;
    }

    boolean hasNext() {
        return position < end;
    }

    /** The cell at the cursor; moves past it. */
    Cell next() throws CorruptStoreFileException {
        int length = cellLength(position);
        Cell cell;
        ByteBuffer buffer = data.bufferAt(position);
        int at = data.positionOf(position);
        if (views && at + length <= buffer.capacity()) {
            // What decodeBuffered makes for a cell within one NIO buffer, without validating the
            // header a second time or looking its buffer up again.
            cell = new BufferedKeyValue(buffer, at);
        } else {
            cell = views ? KeyValueCodec.decodeBuffered(data, position) : KeyValueCodec.decode(data, position);
        }
        position += length;
        return cell;
    }

    /**
     * Moves to the first cell whose row is at or after {@code row}: forward from the cursor when the
     * cursor's row is still before {@code row}, else from the block's start.
     *
     * @return false when every cell of the block sorts before {@code row}
     */
    boolean seekToRow(byte[] row) throws CorruptStoreFileException {
        int at = 0;
        if (hasNext()) {
            cellLength(position);
            if (compareRowAt(position, row) < 0) {
                at = position;
            }
        }
        while (at < end) {
            int length = cellLength(at);
            if (compareRowAt(at, row) >= 0) {
                position = at;
                return true;
            }
            at += length;
        }
        position = at;
        return false;
    }

    private int compareRowAt(int at, byte[] row) {
        int rowLength = data.getShort(at + KeyValueFormat.ROW_LENGTH_OFFSET);
        int rowStart = at + KeyValueFormat.ROW_OFFSET;
        if (data.isContiguous(rowStart, rowLength)) {
            return KeyCompare.compare(data.bufferAt(rowStart), data.positionOf(rowStart), rowLength, row, 0, row.length);
        }
        return ByteBuff.compareTo(data, rowStart, rowLength, row, 0, row.length); // a row across two buffers: rare
    }

    private int cellLength(int at) throws CorruptStoreFileException {
        try {
            return KeyValueCodec.cellLength(data, at);
        } catch (MalformedCellException | IndexOutOfBoundsException e) {
            throw new CorruptStoreFileException(key.fileName(), key.offset(),
                    "malformed cell at payload index " + at + " of the data block: " + e.getMessage(), e);
        }
    }
}
