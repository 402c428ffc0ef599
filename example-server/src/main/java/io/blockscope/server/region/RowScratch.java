package io.blockscope.server.region;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A small reusable copy of a row key, held as big-endian words.
 *
 * <p>Why copy at all: a read compares each cell with the row it is in, but the row's first cell
 * may sit in a block the cursor has already given back to the cache, whose memory eviction may
 * reuse at any moment; comparing against a few copied bytes is both safe and cheaper than keeping
 * the block. Each {@link FileCursor} also keeps one for its current cell, so a scan reads a cell's
 * row out of its block once and makes every row compare (merge order, stop row, row boundary) on
 * the copy.
 *
 * <p>Why words: a scan makes four or five row compares per cell. Kept as {@code long}s, with the
 * bytes past the row's end zeroed, a compare is a short loop over plain array elements with no
 * tail of single bytes (26-byte keys are four words), and an equality check looks at the last
 * word first, where neighbouring rows differ. Zero padding keeps the order right: when all the
 * common words are equal, the shorter row is a prefix of the longer one and sorts first.
 */
final class RowScratch {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private long[] words = new long[8];
    private int rowLength;

    /** A scratch holding {@code key}. */
    static RowScratch of(byte[] key) {
        RowScratch scratch = new RowScratch();
        scratch.setRow(key, 0, key.length);
        return scratch;
    }

    /** Remembers {@code cell}'s row as the current row. */
    void setRow(Cell cell) {
        if (cell instanceof ByteBufferCell bb) {
            setRow(bb.getRowByteBuffer(), bb.getRowPosition(), cell.getRowLength());
        } else {
            setRow(cell.getRowArray(), cell.getRowOffset(), cell.getRowLength());
        }
    }

    /** Remembers {@code other}'s row as the current row. */
    void setRow(RowScratch other) {
        int count = wordCount(other.rowLength);
        long[] w = ensure(count);
        System.arraycopy(other.words, 0, w, 0, count);
        rowLength = other.rowLength;
    }

    /** Remembers {@code key[offset, offset + length)} as the current row. */
    void setRow(byte[] key, int offset, int length) {
        long[] w = ensure(wordCount(length));
        int full = length >>> 3;
        for (int i = 0; i < full; i++) {
            w[i] = (long) LONGS.get(key, offset + (i << 3));
        }
        int rest = length & 7;
        if (rest != 0) {
            int at = offset + (full << 3);
            long last = 0;
            if (at + Long.BYTES <= key.length) {
                last = (long) LONGS.get(key, at) & highBytes(rest);
            } else {
                for (int j = 0; j < rest; j++) {
                    last |= (key[at + j] & 0xFFL) << (56 - 8 * j);
                }
            }
            w[full] = last;
        }
        rowLength = length;
    }

    /**
     * Reads the row out of a (big-endian) buffer. The last partial word is one {@code getLong} when
     * the buffer has eight bytes there, as it has inside a cell (the family and timestamp follow the
     * row), masked down to the row's bytes.
     */
    void setRow(ByteBuffer buffer, int position, int length) {
        long[] w = ensure(wordCount(length));
        int full = length >>> 3;
        for (int i = 0; i < full; i++) {
            w[i] = buffer.getLong(position + (i << 3));
        }
        int rest = length & 7;
        if (rest != 0) {
            int at = position + (full << 3);
            long last = 0;
            if (at + Long.BYTES <= buffer.limit()) {
                last = buffer.getLong(at) & highBytes(rest);
            } else {
                for (int j = 0; j < rest; j++) {
                    last |= (buffer.get(at + j) & 0xFFL) << (56 - 8 * j);
                }
            }
            w[full] = last;
        }
        rowLength = length;
    }

    /** True when {@code other} holds the same row. */
    boolean sameRow(RowScratch other) {
        if (rowLength != other.rowLength) {
            return false;
        }
        long[] a = words;
        long[] b = other.words;
        int i = wordCount(rowLength) - 1;
        if (i < 0) {
            return true;
        }
        if (a[i] != b[i]) { // rows next to each other differ at the end: look there first
            return false;
        }
        for (int j = 0; j < i; j++) {
            if (a[j] != b[j]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned order of this row against {@code other}'s: only the sign is meaningful. */
    int compareTo(RowScratch other) {
        long[] a = words;
        long[] b = other.words;
        int common = Math.min(wordCount(rowLength), wordCount(other.rowLength));
        for (int i = 0; i < common; i++) {
            if (a[i] != b[i]) {
                return Long.compareUnsigned(a[i], b[i]);
            }
        }
        return rowLength - other.rowLength;
    }

    /** A fresh copy of the row. */
    byte[] toBytes() {
        byte[] bytes = new byte[rowLength];
        for (int i = 0; i < rowLength; i++) {
            bytes[i] = (byte) (words[i >>> 3] >>> (56 - 8 * (i & 7)));
        }
        return bytes;
    }

    private long[] ensure(int count) {
        if (words.length < count) {
            words = new long[Math.max(count, words.length * 2)];
        }
        return words;
    }

    private static int wordCount(int length) {
        return (length + 7) >>> 3;
    }

    /** A mask keeping the first {@code count} (1..7) bytes of a big-endian word. */
    private static long highBytes(int count) {
        return -1L << (64 - 8 * count);
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
