package io.blockscope.server.region;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.CellComparator;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Small reusable copies of a cell's row and column, made through the buffer accessors.
 *
 * <p>Why copy at all: a scan compares each cell with the row it is in, and (with several files)
 * with the previous cell's column. Those earlier cells may sit in a block the cursor has already
 * given back to the cache, whose memory eviction may reuse at any moment; comparing against a few
 * copied bytes is both safe and cheaper than keeping the block.
 */
final class RowScratch {

    private byte[] row = new byte[64];
    private int rowLength;
    private byte[] column = new byte[64];
    private int familyLength;
    private int qualifierLength;
    private boolean hasColumn;

    /** Remembers {@code cell}'s row as the current row; forgets the column. */
    void setRow(Cell cell) {
        rowLength = cell.getRowLength();
        if (row.length < rowLength) {
            row = new byte[Math.max(rowLength, row.length * 2)];
        }
        if (cell instanceof ByteBufferCell bb) {
            bb.getRowByteBuffer().get(bb.getRowPosition(), row, 0, rowLength);
        } else {
            System.arraycopy(cell.getRowArray(), cell.getRowOffset(), row, 0, rowLength);
        }
        hasColumn = false;
    }

    /** True when {@code cell} is in the current row. */
    boolean inRow(Cell cell) {
        return cell.getRowLength() == rowLength && CellComparator.compareRow(cell, row, 0, rowLength) == 0;
    }

    /** A copy of the current row key. */
    byte[] rowCopy() {
        return Arrays.copyOf(row, rowLength);
    }

    /** True when {@code cell} has the same family and qualifier as the last {@link #setColumn} cell of this row. */
    boolean sameColumn(Cell cell) {
        if (!hasColumn || cell.getFamilyLength() != familyLength || cell.getQualifierLength() != qualifierLength) {
            return false;
        }
        if (cell instanceof ByteBufferCell bb) {
            return equal(bb.getFamilyByteBuffer(), bb.getFamilyPosition(), column, 0, familyLength)
                    && equal(bb.getQualifierByteBuffer(), bb.getQualifierPosition(), column, familyLength, qualifierLength);
        }
        return Arrays.equals(cell.getFamilyArray(), cell.getFamilyOffset(), cell.getFamilyOffset() + familyLength,
                column, 0, familyLength)
                && Arrays.equals(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierOffset() + qualifierLength,
                column, familyLength, familyLength + qualifierLength);
    }

    void setColumn(Cell cell) {
        familyLength = cell.getFamilyLength();
        qualifierLength = cell.getQualifierLength();
        int length = familyLength + qualifierLength;
        if (column.length < length) {
            column = new byte[Math.max(length, column.length * 2)];
        }
        if (cell instanceof ByteBufferCell bb) {
            bb.getFamilyByteBuffer().get(bb.getFamilyPosition(), column, 0, familyLength);
            bb.getQualifierByteBuffer().get(bb.getQualifierPosition(), column, familyLength, qualifierLength);
        } else {
            System.arraycopy(cell.getFamilyArray(), cell.getFamilyOffset(), column, 0, familyLength);
            System.arraycopy(cell.getQualifierArray(), cell.getQualifierOffset(), column, familyLength, qualifierLength);
        }
        hasColumn = true;
    }

    /** Columns are a few bytes: a plain loop, no slices. */
    private static boolean equal(ByteBuffer buffer, int position, byte[] bytes, int offset, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(position + i) != bytes[offset + i]) {
                return false;
            }
        }
        return true;
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
