package io.blockscope.server.storefile;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.Cell;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks the cells of one store file in order, across data blocks, fetching each block from a
 * {@link BlockSource}. Test code: the reference reader that store file tests check the format
 * against; the server's read path is {@code region.FileCursor} over {@code region.BlockCells}.
 *
 * <p>The cells it returns point into their blocks, so it keeps every block it returned a cell from
 * until {@link #close()}: the RPC tier closes the scanner only after the response holding those
 * cells has been written. Blocks it only passed through (a seek that landed in the next block) go
 * back to the source at once.
 *
 * <p>Not thread-safe; {@code close()} may be called from another thread once the reading thread is
 * done with it.
 */
public final class StoreFileScanner implements Closeable {

    private final StoreFileReader reader;
    private final BlockSource source;
    private final List<BlockCacheKey> heldKeys = new ArrayList<>();
    private final List<Block> heldBlocks = new ArrayList<>();

    private BlockCacheKey currentKey;
    private Block current;
    private DataBlockScanner cells;
    private boolean currentYielded;
    private boolean started;
    private boolean closed;

    StoreFileScanner(StoreFileReader reader, BlockSource source) {
        this.reader = reader;
        this.source = source;
    }

    /**
     * Positions the scanner at the first cell whose row is at or after {@code row}.
     *
     * @return false when no cell of the file is at or after {@code row}
     */
    public boolean seek(byte[] row) throws IOException {
        checkOpen();
        started = true;
        long offset = reader.dataBlockOffsetFor(row, source);
        if (offset < 0) {
            moveTo(-1);
            return false;
        }
        if (current == null || currentKey.offset() != offset) {
            moveTo(offset);
        }
        while (current != null) {
            if (cells.seekToRow(row, 0, row.length)) {
                return true;
            }
            moveTo(reader.nextDataBlockOffset(currentKey.offset(), current));
        }
        return false;
    }

    /**
     * The next cell, or null at the end of the file. Before any {@link #seek}, scanning starts at
     * the first cell of the file.
     */
    public Cell next() throws IOException {
        checkOpen();
        if (!started) {
            started = true;
            moveTo(reader.firstDataBlockOffset());
        }
        while (current != null) {
            if (cells.hasNext()) {
                currentYielded = true;
                return cells.next();
            }
            moveTo(reader.nextDataBlockOffset(currentKey.offset(), current));
        }
        return null;
    }

    /** Blocks this scanner holds references on (those it returned cells from, and the current one). */
    public int heldBlockCount() {
        return heldBlocks.size() + (current != null ? 1 : 0);
    }

    /** Gives back every block it holds. Cells it returned are invalid afterwards. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (current != null) {
            source.returnBlock(currentKey, current);
            current = null;
            cells = null;
        }
        for (int i = 0; i < heldBlocks.size(); i++) {
            source.returnBlock(heldKeys.get(i), heldBlocks.get(i));
        }
        heldBlocks.clear();
        heldKeys.clear();
    }

    /** Leaves the current block (keeping it if it yielded cells) and loads the one at {@code offset} (-1: none). */
    private void moveTo(long offset) throws IOException {
        if (current != null) {
            if (currentYielded) {
                heldKeys.add(currentKey);
                heldBlocks.add(current);
            } else {
                source.returnBlock(currentKey, current);
            }
            current = null;
            cells = null;
        }
        currentYielded = false;
        if (offset < 0) {
            currentKey = null;
            return;
        }
        currentKey = reader.keyFor(offset);
        current = reader.fetch(source, currentKey, BlockType.DATA);
        cells = new DataBlockScanner(current, currentKey);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("scanner over " + reader.name() + " is closed");
        }
    }
}
