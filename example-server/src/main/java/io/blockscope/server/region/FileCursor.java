package io.blockscope.server.region;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.storefile.CorruptStoreFileException;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;

/**
 * A position in one store file: the current cell ({@link #peek()}) and the data block it lives in.
 *
 * <p>Block references follow the "shipped" rule. The cursor holds its current block; when it
 * moves on, the block goes into the read's {@link BlockLease} if a cell of it was put in the
 * result ({@link #shipCurrent()}), and straight back to the cache otherwise. So a filter-all scan of
 * 10,000 rows holds one block per file at a time, while a scan that returns cells keeps exactly the
 * blocks its response points into.
 *
 * <p>Used by one thread; not thread-safe.
 */
final class FileCursor {

    private final StoreFileReader reader;
    private final CachedBlockSource source;
    private final BlockLease lease;
    private BlockCacheKey key;
    private Block block;
    private BlockCells cells;
    private boolean shipped;
    private Cell peek;
    /**
     * A copy of {@link #peek}'s row key, taken once per cell: the merge, the stop-row check and the
     * row-boundary check then compare heap arrays (vectorized {@code Arrays} intrinsics) instead of
     * each re-reading the row from the block with bounds- and scope-checked buffer reads.
     */
    private final RowScratch currentRow = new RowScratch();
    /** Set for scans, which read blocks front to back (see {@link BlockCells#scanning()}). */
    private boolean sequential;

    FileCursor(StoreFileReader reader, CachedBlockSource source, BlockLease lease) {
        this.reader = reader;
        this.source = source;
        this.lease = lease;
    }

    StoreFileReader reader() {
        return reader;
    }

    /** The cell at the cursor, or null at the end of the file. */
    Cell peek() {
        return peek;
    }

    /** The current cell's row key, or stale bytes at the end of the file (check {@link #peek()} first). */
    RowScratch row() {
        return currentRow;
    }

    /** Whether the file may hold {@code row}, by its bloom filter (one L1 lookup). */
    boolean mightContain(byte[] row) throws IOException {
        return reader.mightContainRow(row, source);
    }

    /** Moves to the first cell whose row is at or after {@code row}; false when there is none. */
    boolean seek(byte[] row) throws IOException {
        long offset = reader.dataBlockOffsetFor(row, source);
        if (offset < 0) {
            moveTo(-1);
            return false;
        }
        if (block == null || key.offset() != offset) {
            moveTo(offset);
        }
        while (block != null) {
            if (cells.seekToRow(row)) {
                setPeek(cells.next());
                return true;
            }
            moveTo(reader.nextDataBlockOffset(key.offset(), block));
        }
        peek = null;
        return false;
    }

    /** Marks this cursor as scanning: it will read the blocks it enters from front to back. */
    void sequential() {
        sequential = true;
    }

    /** Moves to the file's first cell; false for an empty file. */
    boolean seekToFirst() throws IOException {
        moveTo(reader.firstDataBlockOffset());
        return advance();
    }

    /** Steps past the current cell; false at the end of the file. */
    boolean advance() throws IOException {
        while (block != null) {
            if (cells.hasNext()) {
                setPeek(cells.next());
                return true;
            }
            moveTo(reader.nextDataBlockOffset(key.offset(), block));
        }
        peek = null;
        return false;
    }

    /** The current cell goes into the result: its block must stay pinned until the result is released. */
    void shipCurrent() {
        shipped = true;
    }

    private void setPeek(Cell cell) {
        peek = cell;
        currentRow.setRow(cell);
    }

    /** Lets go of the current block (into the lease if it was shipped). The cursor is at the end afterwards. */
    void close() {
        peek = null;
        leaveBlock();
    }

    private void moveTo(long offset) throws IOException {
        leaveBlock();
        if (offset < 0) {
            peek = null;
            return;
        }
        BlockCacheKey next = reader.keyFor(offset);
        Block fetched = source.getBlock(next, BlockType.DATA);
        if (fetched.type() != BlockType.DATA) {
            source.returnBlock(next, fetched);
            throw new CorruptStoreFileException(
                    reader.name(), offset, "expected a DATA block, the cache returned a " + fetched.type());
        }
        key = next;
        block = fetched;
        cells = new BlockCells(fetched, next);
        if (sequential) {
            cells.scanning();
        }
    }

    private void leaveBlock() {
        if (block == null) {
            return;
        }
        Block leaving = block;
        BlockCacheKey leavingKey = key;
        block = null;
        cells = null;
        key = null;
        if (shipped) {
            shipped = false;
            lease.hold(leavingKey, leaving);
        } else {
            source.returnBlock(leavingKey, leaving);
        }
    }
}
