package io.blockscope.server.region;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A small reusable copy of a row key, made through the buffer accessors.
 *
 * <p>Why copy at all: a read compares each cell with the row it is in, but the row's first cell
 * may sit in a block the cursor has already given back to the cache, whose memory eviction may
 * reuse at any moment; comparing against a few copied bytes is both safe and cheaper than keeping
 * the block. Each {@link FileCursor} also keeps one for its current cell, so a scan reads a cell's
 * row out of its block once and makes every row compare (merge order, stop row, row boundary) on
 * heap arrays.
 */
final class RowScratch {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[] row = new byte[64];
    private int rowLength;

    /** Remembers {@code cell}'s row as the current row. */
    void setRow(Cell cell) {
        rowLength = cell.getRowLength();
        if (row.length < rowLength) {
            row = new byte[Math.max(rowLength, row.length * 2)];
        }
        if (cell instanceof ByteBufferCell bb) {
            copy(bb.getRowByteBuffer(), bb.getRowPosition(), row, 0, rowLength);
        } else {
            System.arraycopy(cell.getRowArray(), cell.getRowOffset(), row, 0, rowLength);
        }
    }

    /** Remembers {@code other}'s row as the current row (a plain array copy). */
    void setRow(RowScratch other) {
        rowLength = other.rowLength;
        if (row.length < rowLength) {
            row = new byte[Math.max(rowLength, row.length * 2)];
        }
        System.arraycopy(other.row, 0, row, 0, rowLength);
    }

    /** True when {@code other} holds the same row. */
    boolean sameRow(RowScratch other) {
        return rowLength == other.rowLength && KeyCompare.compare(row, rowLength, other.row, other.rowLength) == 0;
    }

    /** True when the row is {@code key[0, length)}. */
    boolean sameRow(byte[] key, int length) {
        return KeyCompare.compare(row, rowLength, key, length) == 0;
    }

    /** Unsigned order of this row against {@code other}'s: only the sign is meaningful. */
    int compareTo(RowScratch other) {
        return KeyCompare.compare(row, rowLength, other.row, other.rowLength);
    }

    /** Unsigned order of this row against {@code key[0, length)}: only the sign is meaningful. */
    int compareTo(byte[] key, int length) {
        return KeyCompare.compare(row, rowLength, key, length);
    }

    /** A fresh copy of the row. */
    byte[] toBytes() {
        return Arrays.copyOf(row, rowLength);
    }

    /**
     * Copies a few bytes out of a buffer a word at a time. For keys of tens of bytes this is several
     * times cheaper than the bulk {@code ByteBuffer.get(int, byte[], int, int)}, whose bounds checks
     * and copy-memory setup dominate at this size.
     */
    private static void copy(ByteBuffer src, int position, byte[] dst, int offset, int length) {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            LONGS.set(dst, offset + i, src.getLong(position + i));
        }
        for (; i < length; i++) {
            dst[offset + i] = src.get(position + i);
        }
    }

    /** A fresh copy of {@code cell}'s row key. */
    static byte[] rowOf(Cell cell) {
        byte[] key = new byte[cell.getRowLength()];
        if (cell instanceof ByteBufferCell bb) {
            bb.getRowByteBuffer().get(bb.getRowPosition(), key, 0, key.length);
        } else {
            System.arraycopy(cell.getRowArray(), cell.getRowOffset(), key, 0, key.length);
        }
        return key;
    }
}
