package io.blockscope.server.storefile;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.ByteBuffers;
import io.blockscope.server.buffer.RangeComparer;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.KeyValueCodec;
import io.blockscope.server.cell.KeyValueFormat;
import io.blockscope.server.cell.MalformedCellException;
import java.util.NoSuchElementException;

/**
 * A cursor over the cells of one data block payload. Test code: the reference decoder that
 * {@code region.BlockCells}, the server's own, is checked against.
 *
 * <p>Seeking reads only cell headers and rows in place; the one object per cell is the cell
 * {@link #next()} returns: a {@link io.blockscope.server.cell.BufferedKeyValue} when the block is
 * offheap or {@link Block.MemoryType#SHARED} cache memory, an {@link io.blockscope.server.cell.ArrayCell}
 * over the array of an exclusive heap block (a copy read from disk or out of the cache), and a
 * copied {@code ArrayCell} for the rare cell that straddles two buffers.
 *
 * <p>Cells point into the block: they are valid only while the block is held. Not thread-safe.
 */
public final class DataBlockScanner {

    private final ByteBuff data;
    private final boolean bufferedCells;
    private final String file;
    private final long blockOffset;
    private int position;

    /**
     * @param block a {@link BlockType#DATA} block
     * @param key   where the block comes from, for error messages
     */
    public DataBlockScanner(Block block, BlockCacheKey key) {
        if (block.type() != BlockType.DATA) {
            throw new IllegalArgumentException("a DataBlockScanner reads DATA blocks, got " + block);
        }
        this.data = block.data();
        this.bufferedCells = data.isDirect() || block.memoryType() == Block.MemoryType.SHARED;
        this.file = key.fileName();
        this.blockOffset = key.offset();
    }

    /** True when {@link #next()} has a cell to return. */
    public boolean hasNext() {
        return position < data.capacity();
    }

    /**
     * The cell at the cursor; moves past it.
     *
     * @throws CorruptStoreFileException when the bytes there are not a well-formed cell
     */
    public Cell next() throws CorruptStoreFileException {
        if (!hasNext()) {
            throw new NoSuchElementException("no more cells in data block " + file + "@" + blockOffset);
        }
        Cell cell;
        try {
            cell = bufferedCells ? KeyValueCodec.decodeBuffered(data, position) : KeyValueCodec.decode(data, position);
        } catch (MalformedCellException e) {
            throw malformed(position, e);
        }
        position += KeyValueCodec.serializedLength(cell);
        return cell;
    }

    /**
     * Moves the cursor to the first cell whose row is at or after {@code row}. Seeks forward from
     * the cursor when the cursor's row sorts before {@code row}, else from the start of the block.
     *
     * @return false when every cell of the block sorts before {@code row} (the cursor is then at the end)
     */
    public boolean seekToRow(byte[] row, int offset, int length) throws CorruptStoreFileException {
        RangeComparer comparer = ByteBuffers.comparer(); // once per seek, not once per cell
        int at = 0;
        if (hasNext()) {
            checkedLength(position);
            if (compareRowAt(comparer, position, row, offset, length) < 0) {
                at = position; // everything before the cursor sorts before row too
            }
        }
        while (at < data.capacity()) {
            int cellLength = checkedLength(at);
            if (compareRowAt(comparer, at, row, offset, length) >= 0) {
                position = at;
                return true;
            }
            at += cellLength;
        }
        position = at;
        return false;
    }

    public boolean seekToRow(byte[] row) throws CorruptStoreFileException {
        return seekToRow(row, 0, row.length);
    }

    /** Back to the first cell. */
    public void rewind() {
        position = 0;
    }

    /** Payload index of the cell {@link #next()} returns. */
    public int position() {
        return position;
    }

    /** Compares the row of the cell at {@code at}, whose header {@link #checkedLength} vouched for. */
    private int compareRowAt(RangeComparer comparer, int at, byte[] row, int offset, int length) {
        int rowLength = data.getShort(at + KeyValueFormat.ROW_LENGTH_OFFSET);
        return comparer.compare(data, at + KeyValueFormat.ROW_OFFSET, rowLength, row, offset, length);
    }

    private int checkedLength(int at) throws CorruptStoreFileException {
        try {
            return KeyValueCodec.cellLength(data, at);
        } catch (MalformedCellException e) {
            throw malformed(at, e);
        }
    }

    private CorruptStoreFileException malformed(int at, MalformedCellException e) {
        return new CorruptStoreFileException(
                file,
                blockOffset,
                "malformed cell at payload index " + at + " of the data block: " + e.getMessage(),
                e);
    }
}
