package io.blockscope.server.cell;

import static io.blockscope.server.cell.KeyValueFormat.HEADER_SIZE;
import static io.blockscope.server.cell.KeyValueFormat.ROW_OFFSET;

/**
 * A cell serialized in {@link KeyValueFormat} inside a {@code byte[]}, at an offset: an on-heap
 * block's cells point straight into the block's array, with no copy.
 *
 * <p>The lengths are decoded once, in the constructor, because comparators read them over and
 * over; the component bytes stay where they are.
 */
public final class ArrayCell implements Cell {

    private final byte[] bytes;
    private final int offset;
    private final int keyLength;
    private final int valueLength;
    private final int tagsLength;
    private final short rowLength;
    private final byte familyLength;

    /**
     * The cell serialized at {@code bytes[offset]}, which must lie entirely in the array.
     *
     * @throws MalformedCellException when the header's lengths do not describe a cell that fits
     */
    public ArrayCell(byte[] bytes, int offset) {
        if (offset < 0 || offset > bytes.length - HEADER_SIZE - 2) {
            throw new MalformedCellException(
                    "no room for a cell header at offset " + offset + " of " + bytes.length + " bytes");
        }
        this.bytes = bytes;
        this.offset = offset;
        this.keyLength = KeyValueFormat.readInt(bytes, offset + KeyValueFormat.KEY_LENGTH_OFFSET);
        this.valueLength = KeyValueFormat.readInt(bytes, offset + KeyValueFormat.VALUE_LENGTH_OFFSET);
        this.tagsLength = KeyValueFormat.readShort(bytes, offset + KeyValueFormat.TAGS_LENGTH_OFFSET) & 0xFFFF;
        this.rowLength = KeyValueFormat.readShort(bytes, offset + KeyValueFormat.ROW_LENGTH_OFFSET);
        KeyValueFormat.checkedLength(keyLength, valueLength, tagsLength, rowLength, bytes.length - offset);
        this.familyLength = bytes[offset + KeyValueFormat.familyLengthOffset(rowLength)];
        KeyValueFormat.checkFamilyLength(familyLength, keyLength, rowLength);
    }

    /** A new cell with no tags, serialized into a fresh array. */
    public static ArrayCell of(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {
        return of(row, family, qualifier, timestamp, value, new byte[0]);
    }

    /** A new cell, serialized into a fresh array. */
    public static ArrayCell of(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value, byte[] tags) {
        byte[] serialized = KeyValueCodec.serialize(
                row,
                0,
                row.length,
                family,
                0,
                family.length,
                qualifier,
                0,
                qualifier.length,
                timestamp,
                value,
                0,
                value.length,
                tags,
                0,
                tags.length);
        return new ArrayCell(serialized, 0);
    }

    /** The array holding this cell (shared, not a copy). */
    public byte[] bytes() {
        return bytes;
    }

    /** Where this cell starts in {@link #bytes()}. */
    public int offset() {
        return offset;
    }

    /** Bytes of this cell's serialized form. */
    public int serializedLength() {
        return HEADER_SIZE + keyLength + valueLength + tagsLength;
    }

    @Override
    public byte[] getRowArray() {
        return bytes;
    }

    @Override
    public int getRowOffset() {
        return offset + ROW_OFFSET;
    }

    @Override
    public short getRowLength() {
        return rowLength;
    }

    @Override
    public byte[] getFamilyArray() {
        return bytes;
    }

    @Override
    public int getFamilyOffset() {
        return offset + ROW_OFFSET + rowLength + 1;
    }

    @Override
    public byte getFamilyLength() {
        return familyLength;
    }

    @Override
    public byte[] getQualifierArray() {
        return bytes;
    }

    @Override
    public int getQualifierOffset() {
        return getFamilyOffset() + familyLength;
    }

    @Override
    public int getQualifierLength() {
        return KeyValueFormat.qualifierLength(keyLength, rowLength, familyLength);
    }

    @Override
    public long getTimestamp() {
        return KeyValueFormat.readLong(bytes, offset + KeyValueFormat.timestampOffset(keyLength));
    }

    @Override
    public byte[] getValueArray() {
        return bytes;
    }

    @Override
    public int getValueOffset() {
        return offset + KeyValueFormat.valueOffset(keyLength);
    }

    @Override
    public int getValueLength() {
        return valueLength;
    }

    @Override
    public byte[] getTagsArray() {
        return bytes;
    }

    @Override
    public int getTagsOffset() {
        return getValueOffset() + valueLength;
    }

    @Override
    public int getTagsLength() {
        return tagsLength;
    }

    @Override
    public String toString() {
        return Cells.toString(this);
    }
}
