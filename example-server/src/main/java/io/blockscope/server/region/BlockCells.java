package io.blockscope.server.region;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cell.ArrayCell;
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
 * <p>It does what the store file tests' reference {@code DataBlockScanner} does, with one difference that
 * matters on the zero-copy path: a seek compares rows in place with {@link KeyCompare} (word reads,
 * no allocation) instead of going through slices of the block's buffer, which allocate when the
 * block is offheap. A seek touches up to a block's worth of cells, so this is the difference
 * between a get that allocates nothing but its result and one that allocates kilobytes.
 *
 * <p>Cells are made as {@link KeyValueCodec} makes them: views ({@link BufferedKeyValue}, no copy)
 * of shared or direct blocks, {@link ArrayCell}s on an exclusive heap copy. A block held in one
 * buffer, nearly every block, has its cells made directly, their headers checked once. Not
 * thread-safe.
 */
final class BlockCells {

    private final ByteBuff data;
    /** The block's size, read once: {@code hasNext()} runs per cell. */
    private final int end;

    private final boolean views;
    /**
     * The NIO buffer that is exactly the block, when cells are views and the block does not cross
     * a bucket buffer boundary (nearly always), else null.
     */
    private final ByteBuffer single;
    /** The array that ends where the block ends, when cells are made on a heap copy, else null. */
    private final byte[] array;
    /** Where the block starts in {@link #single} or {@link #array}. */
    private final int base;

    private final BlockCacheKey key;
    private int position;

    BlockCells(Block block, BlockCacheKey key) {
        this.data = block.data();
        this.end = data.capacity();
        this.views = data.isDirect() || block.memoryType() == Block.MemoryType.SHARED;
        // A cell checks its lengths against the end of its buffer or array, so cells are made
        // directly only where that end is the block's end; otherwise through KeyValueCodec.
        ByteBuffer whole = end > 0 && data.isContiguous(0, end) ? data.bufferAt(0) : null;
        int start = whole == null ? 0 : data.positionOf(0);
        if (whole != null && !views && whole.hasArray() && whole.array().length - whole.arrayOffset() - start == end) {
            this.single = null;
            this.array = whole.array();
            this.base = whole.arrayOffset() + start;
        } else {
            this.single = whole != null && views && whole.capacity() - start == end ? whole : null;
            this.array = null;
            this.base = start;
        }
        this.key = key;
    }

    /** How far ahead of the cursor a scan keeps the block swept into the CPU caches. */
    private static final int LEAD = 8192;

    private boolean scanning;
    /** The first byte of the block a scan's sweep has not touched yet. */
    private int swept;
    /**
     * Where the sweep's loaded words go. A plain field, not a local: the JIT must then keep the
     * loads, and unlike a volatile it costs no fence per cell.
     */
    @SuppressWarnings("UnusedVariable") // a sink: keeps the JIT from dropping the sweep's reads
    private long touched;

    /**
     * Marks a scan that will read this block front to back: the block is swept into the CPU caches
     * {@value #LEAD} bytes ahead of the cursor, one word per cache line.
     *
     * <p>Why: cells of ~1 KB sit a kilobyte apart and each is found by the length in the one before
     * it, a chain of dependent loads that costs a full memory latency per cell when the block is in
     * DRAM, a stride the hardware prefetchers barely follow. A sequential sweep streams at full
     * bandwidth instead (what the copy path gets from its block copy, without the copy), and doing
     * it a little at a time ahead of the cursor, rather than all at once on entry, lets the CPU
     * overlap those independent loads with the parsing of the cells behind them.
     */
    void scanning() {
        // An exclusive heap block is a copy made for this read: the copy already brought it in.
        scanning = views;
        if (scanning) {
            sweepTo(LEAD);
        }
    }

    private void sweepTo(int limit) {
        int last = Math.min(limit, end) - Long.BYTES;
        int at = swept;
        long sum = 0;
        for (; at <= last; at += 64) {
            sum += data.getLong(at);
        }
        swept = at;
        touched += sum;
    }

    boolean hasNext() {
        return position < end;
    }

    /** The cell at the cursor; moves past it. */
    Cell next() throws CorruptStoreFileException {
        if (single != null || array != null) {
            return nextInOneBuffer();
        }
        int length = cellLength(position);
        if (scanning) {
            sweepTo(position + length + LEAD);
        }
        Cell cell = views ? KeyValueCodec.decodeBuffered(data, position) : KeyValueCodec.decode(data, position);
        position += length;
        return cell;
    }

    /**
     * The common case, a block that is exactly one buffer: the cell is made straight on it (a view
     * of the cache's buffer, or on the heap copy's array), and the cell's constructor makes the
     * only header checks, against the buffer's end, which is the block's (decoding the length
     * first read and validated the same header twice per cell).
     */
    private Cell nextInOneBuffer() throws CorruptStoreFileException {
        Cell cell;
        int length;
        try {
            if (array != null) {
                ArrayCell copied = new ArrayCell(array, base + position);
                length = copied.serializedLength();
                cell = copied;
            } else {
                BufferedKeyValue view = new BufferedKeyValue(single, base + position);
                length = view.serializedLength();
                cell = view;
            }
        } catch (MalformedCellException | IndexOutOfBoundsException e) {
            throw corrupt(position, e);
        }
        if (scanning) {
            sweepTo(position + length + LEAD);
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
            return KeyCompare.compare(
                    data.bufferAt(rowStart), data.positionOf(rowStart), rowLength, row, 0, row.length);
        }
        return ByteBuff.compareTo(data, rowStart, rowLength, row, 0, row.length); // a row across two buffers: rare
    }

    private int cellLength(int at) throws CorruptStoreFileException {
        try {
            return KeyValueCodec.cellLength(data, at);
        } catch (MalformedCellException | IndexOutOfBoundsException e) {
            throw corrupt(at, e);
        }
    }

    private CorruptStoreFileException corrupt(int at, RuntimeException cause) {
        return new CorruptStoreFileException(
                key.fileName(),
                key.offset(),
                "malformed cell at payload index " + at + " of the data block: " + cause.getMessage(),
                cause);
    }
}
