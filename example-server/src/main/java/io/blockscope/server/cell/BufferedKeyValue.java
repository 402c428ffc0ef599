package io.blockscope.server.cell;

import static io.blockscope.server.cell.KeyValueFormat.HEADER_SIZE;
import static io.blockscope.server.cell.KeyValueFormat.ROW_OFFSET;

import java.nio.ByteBuffer;

/**
 * A cell serialized in {@link KeyValueFormat} inside an NIO buffer (a cached block's bucket,
 * usually offheap), read in place.
 *
 * <p>It holds the block's own buffer and the cell's position in it: creating one allocates this
 * object and nothing else, and every buffer accessor returns that same shared buffer. Readers use
 * absolute gets only; the buffer's position and limit are never touched. The lengths are decoded
 * once, in the constructor, because comparators read them over and over.
 *
 * <p>The cell is only valid while the block it points into is held: once the block is returned to
 * the cache its memory may be reused for another block.
 */
public final class BufferedKeyValue extends ByteBufferCell {

    private final ByteBuffer buffer;
    private final int position;
    private final int keyLength;
    private final int valueLength;
    private final int tagsLength;
    private final short rowLength;
    private final byte familyLength;

    /**
     * The cell serialized at absolute {@code position} of {@code buffer}; it must end at or before
     * the buffer's capacity.
     *
     * @throws MalformedCellException when the header's lengths do not describe a cell that fits
     */
    public BufferedKeyValue(ByteBuffer buffer, int position) {
        if (position < 0 || position > buffer.capacity() - HEADER_SIZE - 2) {
            throw new MalformedCellException("no room for a cell header at position " + position + " of a "
                    + buffer.capacity() + "-byte buffer");
        }
        this.buffer = buffer;
        this.position = position;
        this.keyLength = buffer.getInt(position + KeyValueFormat.KEY_LENGTH_OFFSET);
        this.valueLength = buffer.getInt(position + KeyValueFormat.VALUE_LENGTH_OFFSET);
        this.tagsLength = buffer.getShort(position + KeyValueFormat.TAGS_LENGTH_OFFSET) & 0xFFFF;
        this.rowLength = buffer.getShort(position + KeyValueFormat.ROW_LENGTH_OFFSET);
        KeyValueFormat.checkedLength(keyLength, valueLength, tagsLength, rowLength, buffer.capacity() - position);
        this.familyLength = buffer.get(position + KeyValueFormat.familyLengthOffset(rowLength));
        KeyValueFormat.checkFamilyLength(familyLength, keyLength, rowLength);
    }

    /** The buffer holding this cell (shared: absolute reads only). */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Where this cell starts in {@link #buffer()}. */
    public int position() {
        return position;
    }

    /** Bytes of this cell's serialized form. */
    public int serializedLength() {
        return HEADER_SIZE + keyLength + valueLength + tagsLength;
    }

    @Override
    public ByteBuffer getRowByteBuffer() {
        return buffer;
    }

    @Override
    public int getRowPosition() {
        return position + ROW_OFFSET;
    }

    @Override
    public short getRowLength() {
        return rowLength;
    }

    @Override
    public ByteBuffer getFamilyByteBuffer() {
        return buffer;
    }

    @Override
    public int getFamilyPosition() {
        return position + ROW_OFFSET + rowLength + 1;
    }

    @Override
    public byte getFamilyLength() {
        return familyLength;
    }

    @Override
    public ByteBuffer getQualifierByteBuffer() {
        return buffer;
    }

    @Override
    public int getQualifierPosition() {
        return getFamilyPosition() + familyLength;
    }

    @Override
    public int getQualifierLength() {
        return KeyValueFormat.qualifierLength(keyLength, rowLength, familyLength);
    }

    @Override
    public long getTimestamp() {
        return buffer.getLong(position + KeyValueFormat.timestampOffset(keyLength));
    }

    @Override
    public ByteBuffer getValueByteBuffer() {
        return buffer;
    }

    @Override
    public int getValuePosition() {
        return position + KeyValueFormat.valueOffset(keyLength);
    }

    @Override
    public int getValueLength() {
        return valueLength;
    }

    @Override
    public ByteBuffer getTagsByteBuffer() {
        return buffer;
    }

    @Override
    public int getTagsPosition() {
        return getValuePosition() + valueLength;
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
