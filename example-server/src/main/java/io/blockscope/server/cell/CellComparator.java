package io.blockscope.server.cell;

import io.blockscope.server.buffer.ByteBuffers;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The sort order of cells: row, then family, then qualifier (each unsigned lexicographic), then
 * timestamp with the newest first. Works on any mix of array-backed and buffer-backed cells without
 * copying a byte.
 *
 * <p>Each component compare picks one of four paths with {@code instanceof ByteBufferCell}: both
 * buffer-backed, either one, or both array-backed. {@link ByteBufferCell} is an abstract class, so
 * those checks are cheap class-hierarchy tests that C2 folds away for a monomorphic call site. Every
 * path ends in a vectorized JDK mismatch ({@link ByteBuffers}, {@link Arrays#compareUnsigned}); a
 * buffer-backed cell's {@code getXxxArray()} (which would copy) is never called.
 */
public final class CellComparator implements Comparator<Cell> {

    /** The comparator over whole keys, for sorted collections and {@code List.sort}. */
    public static final CellComparator INSTANCE = new CellComparator();

    private CellComparator() {}

    @Override
    public int compare(Cell a, Cell b) {
        return compareKeys(a, b);
    }

    /** Whole-key order: row, family, qualifier, then newest timestamp first. */
    public static int compareKeys(Cell a, Cell b) {
        int c = compareRows(a, b);
        if (c != 0) {
            return c;
        }
        c = compareFamilies(a, b);
        if (c != 0) {
            return c;
        }
        c = compareQualifiers(a, b);
        if (c != 0) {
            return c;
        }
        return compareTimestamps(a, b);
    }

    public static int compareRows(Cell a, Cell b) {
        if (a instanceof ByteBufferCell ba) {
            if (b instanceof ByteBufferCell bb) {
                return ByteBuffers.compare(
                        ba.getRowByteBuffer(),
                        ba.getRowPosition(),
                        ba.getRowLength(),
                        bb.getRowByteBuffer(),
                        bb.getRowPosition(),
                        bb.getRowLength());
            }
            return ByteBuffers.compare(
                    ba.getRowByteBuffer(),
                    ba.getRowPosition(),
                    ba.getRowLength(),
                    b.getRowArray(),
                    b.getRowOffset(),
                    b.getRowLength());
        }
        if (b instanceof ByteBufferCell bb) {
            return -ByteBuffers.compare(
                    bb.getRowByteBuffer(),
                    bb.getRowPosition(),
                    bb.getRowLength(),
                    a.getRowArray(),
                    a.getRowOffset(),
                    a.getRowLength());
        }
        return compareArrays(
                a.getRowArray(),
                a.getRowOffset(),
                a.getRowLength(),
                b.getRowArray(),
                b.getRowOffset(),
                b.getRowLength());
    }

    /** Compares a cell's row with {@code row[offset, offset + length)}: the seek-by-row-key case. */
    public static int compareRow(Cell cell, byte[] row, int offset, int length) {
        if (cell instanceof ByteBufferCell bc) {
            return ByteBuffers.compare(
                    bc.getRowByteBuffer(), bc.getRowPosition(), bc.getRowLength(), row, offset, length);
        }
        return compareArrays(cell.getRowArray(), cell.getRowOffset(), cell.getRowLength(), row, offset, length);
    }

    public static int compareRow(Cell cell, byte[] row) {
        return compareRow(cell, row, 0, row.length);
    }

    public static boolean matchingRows(Cell a, Cell b) {
        return a.getRowLength() == b.getRowLength() && compareRows(a, b) == 0;
    }

    public static boolean matchingRow(Cell cell, byte[] row) {
        return cell.getRowLength() == row.length && compareRow(cell, row, 0, row.length) == 0;
    }

    public static int compareFamilies(Cell a, Cell b) {
        if (a instanceof ByteBufferCell ba) {
            if (b instanceof ByteBufferCell bb) {
                return ByteBuffers.compare(
                        ba.getFamilyByteBuffer(),
                        ba.getFamilyPosition(),
                        ba.getFamilyLength(),
                        bb.getFamilyByteBuffer(),
                        bb.getFamilyPosition(),
                        bb.getFamilyLength());
            }
            return ByteBuffers.compare(
                    ba.getFamilyByteBuffer(),
                    ba.getFamilyPosition(),
                    ba.getFamilyLength(),
                    b.getFamilyArray(),
                    b.getFamilyOffset(),
                    b.getFamilyLength());
        }
        if (b instanceof ByteBufferCell bb) {
            return -ByteBuffers.compare(
                    bb.getFamilyByteBuffer(),
                    bb.getFamilyPosition(),
                    bb.getFamilyLength(),
                    a.getFamilyArray(),
                    a.getFamilyOffset(),
                    a.getFamilyLength());
        }
        return compareArrays(
                a.getFamilyArray(),
                a.getFamilyOffset(),
                a.getFamilyLength(),
                b.getFamilyArray(),
                b.getFamilyOffset(),
                b.getFamilyLength());
    }

    public static int compareQualifiers(Cell a, Cell b) {
        if (a instanceof ByteBufferCell ba) {
            if (b instanceof ByteBufferCell bb) {
                return ByteBuffers.compare(
                        ba.getQualifierByteBuffer(),
                        ba.getQualifierPosition(),
                        ba.getQualifierLength(),
                        bb.getQualifierByteBuffer(),
                        bb.getQualifierPosition(),
                        bb.getQualifierLength());
            }
            return ByteBuffers.compare(
                    ba.getQualifierByteBuffer(),
                    ba.getQualifierPosition(),
                    ba.getQualifierLength(),
                    b.getQualifierArray(),
                    b.getQualifierOffset(),
                    b.getQualifierLength());
        }
        if (b instanceof ByteBufferCell bb) {
            return -ByteBuffers.compare(
                    bb.getQualifierByteBuffer(),
                    bb.getQualifierPosition(),
                    bb.getQualifierLength(),
                    a.getQualifierArray(),
                    a.getQualifierOffset(),
                    a.getQualifierLength());
        }
        return compareArrays(
                a.getQualifierArray(),
                a.getQualifierOffset(),
                a.getQualifierLength(),
                b.getQualifierArray(),
                b.getQualifierOffset(),
                b.getQualifierLength());
    }

    /** Newest first: a cell with a larger timestamp sorts before one with a smaller timestamp. */
    public static int compareTimestamps(Cell a, Cell b) {
        return Long.compare(b.getTimestamp(), a.getTimestamp());
    }

    private static int compareArrays(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        return Arrays.compareUnsigned(a, aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
    }
}
