package io.blockscope.server.region;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.CellComparator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Unsigned lexicographic compares of row keys and cell keys for the region's hot loops, eight
 * bytes at a time with absolute {@code getLong} reads.
 *
 * <p>Why not {@link CellComparator} everywhere: for direct buffers it compares through
 * {@code ByteBuffer.slice(..).mismatch(..)}, and in the region's loops those slices are not
 * scalar-replaced: about 120 bytes of garbage and ~80 ns per compare (measured), several compares
 * per row. That would make the zero-copy path allocate per row, the very thing it exists to
 * avoid. Row keys are short (26 bytes here), so a word loop with no allocation is both cheaper and
 * predictable. Array-backed cells still go through {@link CellComparator} ({@code Arrays.compareUnsigned}).
 */
final class KeyCompare {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private KeyCompare() {}

    /** Compares {@code a[aPos, aPos + aLength)} with {@code b[bPos, bPos + bLength)}; both buffers big-endian. */
    static int compare(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = 0;
        for (; i + Long.BYTES <= common; i += Long.BYTES) {
            long x = a.getLong(aPos + i);
            long y = b.getLong(bPos + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < common; i++) {
            int x = a.get(aPos + i) & 0xFF;
            int y = b.get(bPos + i) & 0xFF;
            if (x != y) {
                return x - y;
            }
        }
        return aLength - bLength;
    }

    /** Compares {@code a[aPos, aPos + aLength)} with {@code b[bOffset, bOffset + bLength)}. */
    static int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = 0;
        for (; i + Long.BYTES <= common; i += Long.BYTES) {
            long x = a.getLong(aPos + i);
            long y = (long) LONGS.get(b, bOffset + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < common; i++) {
            int x = a.get(aPos + i) & 0xFF;
            int y = b[bOffset + i] & 0xFF;
            if (x != y) {
                return x - y;
            }
        }
        return aLength - bLength;
    }

    /** The cell's row against {@code row[0, length)}. */
    static int compareRow(Cell cell, byte[] row, int length) {
        if (cell instanceof ByteBufferCell bb) {
            checkOrder(bb.getRowByteBuffer());
            return compare(bb.getRowByteBuffer(), bb.getRowPosition(), bb.getRowLength(), row, 0, length);
        }
        return CellComparator.compareRow(cell, row, 0, length);
    }

    /** Key order (row, family, qualifier, newest timestamp first), as {@link CellComparator#compareKeys}. */
    static int compareKeys(Cell a, Cell b) {
        if (!(a instanceof ByteBufferCell ba) || !(b instanceof ByteBufferCell bb)) {
            return CellComparator.compareKeys(a, b);
        }
        checkOrder(ba.getRowByteBuffer());
        checkOrder(bb.getRowByteBuffer());
        int c = compare(
                ba.getRowByteBuffer(),
                ba.getRowPosition(),
                ba.getRowLength(),
                bb.getRowByteBuffer(),
                bb.getRowPosition(),
                bb.getRowLength());
        if (c != 0) {
            return c;
        }
        c = compare(
                ba.getFamilyByteBuffer(),
                ba.getFamilyPosition(),
                ba.getFamilyLength(),
                bb.getFamilyByteBuffer(),
                bb.getFamilyPosition(),
                bb.getFamilyLength());
        if (c != 0) {
            return c;
        }
        c = compare(
                ba.getQualifierByteBuffer(),
                ba.getQualifierPosition(),
                ba.getQualifierLength(),
                bb.getQualifierByteBuffer(),
                bb.getQualifierPosition(),
                bb.getQualifierLength());
        if (c != 0) {
            return c;
        }
        return Long.compare(b.getTimestamp(), a.getTimestamp());
    }

    /** True when both cells are in the same row and column (family and qualifier), whatever their timestamps. */
    static boolean sameColumn(Cell a, Cell b) {
        if (a.getRowLength() != b.getRowLength()
                || a.getFamilyLength() != b.getFamilyLength()
                || a.getQualifierLength() != b.getQualifierLength()) {
            return false;
        }
        if (!(a instanceof ByteBufferCell ba) || !(b instanceof ByteBufferCell bb)) {
            return CellComparator.compareRows(a, b) == 0
                    && CellComparator.compareFamilies(a, b) == 0
                    && CellComparator.compareQualifiers(a, b) == 0;
        }
        return compare(
                                ba.getRowByteBuffer(),
                                ba.getRowPosition(),
                                ba.getRowLength(),
                                bb.getRowByteBuffer(),
                                bb.getRowPosition(),
                                bb.getRowLength())
                        == 0
                && compare(
                                ba.getQualifierByteBuffer(),
                                ba.getQualifierPosition(),
                                ba.getQualifierLength(),
                                bb.getQualifierByteBuffer(),
                                bb.getQualifierPosition(),
                                bb.getQualifierLength())
                        == 0
                && compare(
                                ba.getFamilyByteBuffer(),
                                ba.getFamilyPosition(),
                                ba.getFamilyLength(),
                                bb.getFamilyByteBuffer(),
                                bb.getFamilyPosition(),
                                bb.getFamilyLength())
                        == 0;
    }

    /** Word reads assume big-endian buffers; the cache's buffers are (ByteBuff's contract). */
    private static void checkOrder(ByteBuffer buffer) {
        assert buffer.order() == ByteOrder.BIG_ENDIAN : "cell buffers must be big-endian";
    }
}
