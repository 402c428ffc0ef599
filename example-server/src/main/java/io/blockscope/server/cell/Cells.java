package io.blockscope.server.cell;

import io.blockscope.server.buffer.ByteBuffers;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** Helpers over any kind of cell that never copy a buffer-backed cell's bytes. */
public final class Cells {

    private Cells() {}

    /** True when both cells have the same key, value and tags, whatever their kinds. */
    public static boolean equals(Cell a, Cell b) {
        return a.getValueLength() == b.getValueLength()
                && a.getTagsLength() == b.getTagsLength()
                && CellComparator.compareKeys(a, b) == 0
                && a.getTimestamp() == b.getTimestamp()
                && valuesEqual(a, b)
                && tagsEqual(a, b);
    }

    /** True when both cells hold the same value bytes. */
    public static boolean valuesEqual(Cell a, Cell b) {
        if (a.getValueLength() != b.getValueLength()) {
            return false;
        }
        if (a instanceof ByteBufferCell ba) {
            if (b instanceof ByteBufferCell bb) {
                return ByteBuffers.equals(
                        ba.getValueByteBuffer(),
                        ba.getValuePosition(),
                        ba.getValueLength(),
                        bb.getValueByteBuffer(),
                        bb.getValuePosition(),
                        bb.getValueLength());
            }
            return ByteBuffers.compare(
                            ba.getValueByteBuffer(),
                            ba.getValuePosition(),
                            ba.getValueLength(),
                            b.getValueArray(),
                            b.getValueOffset(),
                            b.getValueLength())
                    == 0;
        }
        if (b instanceof ByteBufferCell bb) {
            return ByteBuffers.compare(
                            bb.getValueByteBuffer(),
                            bb.getValuePosition(),
                            bb.getValueLength(),
                            a.getValueArray(),
                            a.getValueOffset(),
                            a.getValueLength())
                    == 0;
        }
        return Arrays.equals(
                a.getValueArray(),
                a.getValueOffset(),
                a.getValueOffset() + a.getValueLength(),
                b.getValueArray(),
                b.getValueOffset(),
                b.getValueOffset() + b.getValueLength());
    }

    private static boolean tagsEqual(Cell a, Cell b) {
        if (a.getTagsLength() != b.getTagsLength()) {
            return false;
        }
        if (a.getTagsLength() == 0) {
            return true;
        }
        if (a instanceof ByteBufferCell ba) {
            if (b instanceof ByteBufferCell bb) {
                return ByteBuffers.equals(
                        ba.getTagsByteBuffer(),
                        ba.getTagsPosition(),
                        ba.getTagsLength(),
                        bb.getTagsByteBuffer(),
                        bb.getTagsPosition(),
                        bb.getTagsLength());
            }
            return ByteBuffers.compare(
                            ba.getTagsByteBuffer(),
                            ba.getTagsPosition(),
                            ba.getTagsLength(),
                            b.getTagsArray(),
                            b.getTagsOffset(),
                            b.getTagsLength())
                    == 0;
        }
        if (b instanceof ByteBufferCell bb) {
            return ByteBuffers.compare(
                            bb.getTagsByteBuffer(),
                            bb.getTagsPosition(),
                            bb.getTagsLength(),
                            a.getTagsArray(),
                            a.getTagsOffset(),
                            a.getTagsLength())
                    == 0;
        }
        return Arrays.equals(
                a.getTagsArray(),
                a.getTagsOffset(),
                a.getTagsOffset() + a.getTagsLength(),
                b.getTagsArray(),
                b.getTagsOffset(),
                b.getTagsOffset() + b.getTagsLength());
    }

    /**
     * {@code row/family:qualifier/timestamp/vlen=N}, bytes outside printable ASCII as {@code \xNN}.
     * Reads a buffer-backed cell through its buffers, so logging a cell never counts as a heap copy.
     */
    public static String toString(Cell cell) {
        StringBuilder out = new StringBuilder();
        if (cell instanceof ByteBufferCell bc) {
            appendBinary(out, bc.getRowByteBuffer(), bc.getRowPosition(), bc.getRowLength())
                    .append('/');
            appendBinary(out, bc.getFamilyByteBuffer(), bc.getFamilyPosition(), bc.getFamilyLength())
                    .append(':');
            appendBinary(out, bc.getQualifierByteBuffer(), bc.getQualifierPosition(), bc.getQualifierLength());
        } else {
            appendBinary(out, ByteBuffer.wrap(cell.getRowArray()), cell.getRowOffset(), cell.getRowLength())
                    .append('/');
            appendBinary(out, ByteBuffer.wrap(cell.getFamilyArray()), cell.getFamilyOffset(), cell.getFamilyLength())
                    .append(':');
            appendBinary(
                    out,
                    ByteBuffer.wrap(cell.getQualifierArray()),
                    cell.getQualifierOffset(),
                    cell.getQualifierLength());
        }
        return out.append('/')
                .append(cell.getTimestamp())
                .append("/vlen=")
                .append(cell.getValueLength())
                .toString();
    }

    /** Printable form of a byte range, for error messages: {@code row-0001\x00\xFF}. */
    public static String toStringBinary(byte[] bytes, int offset, int length) {
        return appendBinary(new StringBuilder(), ByteBuffer.wrap(bytes), offset, length)
                .toString();
    }

    private static StringBuilder appendBinary(StringBuilder out, ByteBuffer buffer, int position, int length) {
        for (int i = 0; i < length; i++) {
            int b = buffer.get(position + i) & 0xFF;
            if (b >= ' ' && b < 0x7F && b != '\\') {
                out.append((char) b);
            } else {
                out.append(String.format("\\x%02X", b));
            }
        }
        return out;
    }
}
