package io.blockscope.server.cell;

import io.blockscope.server.buffer.ByteBuff;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Writes cells in {@link KeyValueFormat} and decodes them back out of a {@link ByteBuff}.
 *
 * <p>Decoding never copies in the common case: a cell that lies inside one NIO buffer becomes an
 * {@link ArrayCell} over a heap buffer's array or a {@link BufferedKeyValue} over the buffer itself.
 * The exception is a cell that straddles two buffers of a {@link io.blockscope.server.buffer.MultiByteBuff}
 * (a block that crosses the boundary of two 4 MB buckets, and a cell that crosses it too): no single
 * NIO buffer holds it, so it is copied into an {@code ArrayCell}. That happens for at most one cell
 * per boundary, so rarely that the copy does not matter.
 */
public final class KeyValueCodec {

    private KeyValueCodec() {}

    /** Bytes {@code cell} takes in {@link KeyValueFormat}. */
    public static int serializedLength(Cell cell) {
        if (cell instanceof ArrayCell ac) {
            return ac.serializedLength();
        }
        if (cell instanceof BufferedKeyValue kv) {
            return kv.serializedLength();
        }
        return checkedLength(
                cell.getRowLength(),
                cell.getFamilyLength(),
                cell.getQualifierLength(),
                cell.getValueLength(),
                cell.getTagsLength());
    }

    /** Serializes {@code cell} into {@code dst} at {@code offset}; returns the bytes written. */
    public static int write(Cell cell, byte[] dst, int offset) {
        int length = serializedLength(cell);
        if (offset < 0 || offset > dst.length - length) {
            throw new IndexOutOfBoundsException("a " + length + "-byte cell does not fit at offset " + offset + " of a "
                    + dst.length + "-byte array");
        }
        if (cell instanceof ArrayCell ac) {
            System.arraycopy(ac.bytes(), ac.offset(), dst, offset, length);
            return length;
        }
        if (cell instanceof BufferedKeyValue kv) {
            kv.buffer().get(kv.position(), dst, offset, length);
            return length;
        }
        int at = writeHeader(cell, dst, offset);
        at = copy(cell, Component.ROW, dst, at);
        dst[at++] = cell.getFamilyLength();
        at = copy(cell, Component.FAMILY, dst, at);
        at = copy(cell, Component.QUALIFIER, dst, at);
        KeyValueFormat.writeLong(dst, at, cell.getTimestamp());
        at += Long.BYTES;
        at = copy(cell, Component.VALUE, dst, at);
        copy(cell, Component.TAGS, dst, at);
        return length;
    }

    /** Serializes {@code cell} into {@code dst} at {@code index}; returns the bytes written. */
    public static int write(Cell cell, ByteBuff dst, int index) {
        if (cell instanceof ArrayCell ac) {
            dst.put(index, ac.bytes(), ac.offset(), ac.serializedLength());
            return ac.serializedLength();
        }
        if (cell instanceof BufferedKeyValue kv) {
            dst.put(index, kv.buffer(), kv.position(), kv.serializedLength());
            return kv.serializedLength();
        }
        byte[] serialized = new byte[serializedLength(cell)];
        write(cell, serialized, 0);
        dst.put(index, serialized, 0, serialized.length);
        return serialized.length;
    }

    /** Serializes {@code cell} at {@code dst}'s position and advances it. */
    public static int write(Cell cell, ByteBuffer dst) {
        int length = write(cell, ByteBuff.wrap(dst), 0);
        dst.position(dst.position() + length);
        return length;
    }

    /** A fresh array holding {@code cell} in {@link KeyValueFormat}. */
    public static byte[] toBytes(Cell cell) {
        byte[] out = new byte[serializedLength(cell)];
        write(cell, out, 0);
        return out;
    }

    /** Serializes components given as array ranges into a fresh array. */
    static byte[] serialize(
            byte[] row,
            int rowOffset,
            int rowLength,
            byte[] family,
            int familyOffset,
            int familyLength,
            byte[] qualifier,
            int qualifierOffset,
            int qualifierLength,
            long timestamp,
            byte[] value,
            int valueOffset,
            int valueLength,
            byte[] tags,
            int tagsOffset,
            int tagsLength) {
        int length = checkedLength(rowLength, familyLength, qualifierLength, valueLength, tagsLength);
        byte[] out = new byte[length];
        KeyValueFormat.writeInt(
                out,
                KeyValueFormat.KEY_LENGTH_OFFSET,
                KeyValueFormat.keyLength(rowLength, familyLength, qualifierLength));
        KeyValueFormat.writeInt(out, KeyValueFormat.VALUE_LENGTH_OFFSET, valueLength);
        KeyValueFormat.writeShort(out, KeyValueFormat.TAGS_LENGTH_OFFSET, (short) tagsLength);
        KeyValueFormat.writeShort(out, KeyValueFormat.ROW_LENGTH_OFFSET, (short) rowLength);
        int at = KeyValueFormat.ROW_OFFSET;
        System.arraycopy(row, rowOffset, out, at, rowLength);
        at += rowLength;
        out[at++] = (byte) familyLength;
        System.arraycopy(family, familyOffset, out, at, familyLength);
        at += familyLength;
        System.arraycopy(qualifier, qualifierOffset, out, at, qualifierLength);
        at += qualifierLength;
        KeyValueFormat.writeLong(out, at, timestamp);
        at += Long.BYTES;
        System.arraycopy(value, valueOffset, out, at, valueLength);
        at += valueLength;
        System.arraycopy(tags, tagsOffset, out, at, tagsLength);
        return out;
    }

    /**
     * Length of the cell serialized at {@code index}, read from its header and checked against the
     * bytes that follow it in {@code src}.
     *
     * @throws MalformedCellException when the header does not describe a cell that fits
     */
    public static int cellLength(ByteBuff src, int index) {
        int available = src.capacity() - index;
        if (index < 0 || available < KeyValueFormat.ROW_OFFSET) {
            throw new MalformedCellException(
                    "no room for a cell header at index " + index + " of a " + src.capacity() + "-byte buffer");
        }
        return KeyValueFormat.checkedLength(
                src.getInt(index + KeyValueFormat.KEY_LENGTH_OFFSET),
                src.getInt(index + KeyValueFormat.VALUE_LENGTH_OFFSET),
                src.getShort(index + KeyValueFormat.TAGS_LENGTH_OFFSET) & 0xFFFF,
                src.getShort(index + KeyValueFormat.ROW_LENGTH_OFFSET),
                available);
    }

    /**
     * The cell at {@code index}: an {@link ArrayCell} over the backing array when its buffer is on the
     * heap, a {@link BufferedKeyValue} over its buffer otherwise, a copied {@code ArrayCell} when it
     * straddles two buffers.
     */
    public static Cell decode(ByteBuff src, int index) {
        int length = cellLength(src, index);
        if (!src.isContiguous(index, length)) {
            return new ArrayCell(src.toBytes(index, length), 0);
        }
        ByteBuffer buffer = src.bufferAt(index);
        int position = src.positionOf(index);
        if (buffer.hasArray()) {
            return new ArrayCell(buffer.array(), buffer.arrayOffset() + position);
        }
        return new BufferedKeyValue(buffer, position);
    }

    /**
     * The cell at {@code index} as a {@link BufferedKeyValue} over its buffer, heap or direct (a
     * copied {@link ArrayCell} when it straddles two buffers): for cells in shared cache memory.
     */
    public static Cell decodeBuffered(ByteBuff src, int index) {
        int length = cellLength(src, index);
        if (!src.isContiguous(index, length)) {
            return new ArrayCell(src.toBytes(index, length), 0);
        }
        return new BufferedKeyValue(src.bufferAt(index), src.positionOf(index));
    }

    /**
     * CRC32C of the cell's {@link KeyValueFormat} bytes: the same value for equal cells of any kind,
     * so a reader can check a cell it got from the cache against the checksum taken when it was written.
     */
    public static int checksum(Cell cell) {
        CRC32C crc = new CRC32C();
        if (cell instanceof ArrayCell ac) {
            crc.update(ac.bytes(), ac.offset(), ac.serializedLength());
        } else if (cell instanceof BufferedKeyValue kv) {
            crc.update(kv.buffer().slice(kv.position(), kv.serializedLength()));
        } else {
            crc.update(toBytes(cell));
        }
        return (int) crc.getValue();
    }

    private static int writeHeader(Cell cell, byte[] dst, int offset) {
        KeyValueFormat.writeInt(
                dst,
                offset + KeyValueFormat.KEY_LENGTH_OFFSET,
                KeyValueFormat.keyLength(cell.getRowLength(), cell.getFamilyLength(), cell.getQualifierLength()));
        KeyValueFormat.writeInt(dst, offset + KeyValueFormat.VALUE_LENGTH_OFFSET, cell.getValueLength());
        KeyValueFormat.writeShort(dst, offset + KeyValueFormat.TAGS_LENGTH_OFFSET, (short) cell.getTagsLength());
        KeyValueFormat.writeShort(dst, offset + KeyValueFormat.ROW_LENGTH_OFFSET, cell.getRowLength());
        return offset + KeyValueFormat.ROW_OFFSET;
    }

    private enum Component {
        ROW,
        FAMILY,
        QUALIFIER,
        VALUE,
        TAGS
    }

    /** Copies one component to {@code dst[at]}, from the buffer when the cell has one; returns the next offset. */
    private static int copy(Cell cell, Component component, byte[] dst, int at) {
        if (cell instanceof ByteBufferCell bc) {
            ByteBuffer buffer;
            int position;
            int length;
            switch (component) {
                case ROW -> {
                    buffer = bc.getRowByteBuffer();
                    position = bc.getRowPosition();
                    length = bc.getRowLength();
                }
                case FAMILY -> {
                    buffer = bc.getFamilyByteBuffer();
                    position = bc.getFamilyPosition();
                    length = bc.getFamilyLength();
                }
                case QUALIFIER -> {
                    buffer = bc.getQualifierByteBuffer();
                    position = bc.getQualifierPosition();
                    length = bc.getQualifierLength();
                }
                case VALUE -> {
                    buffer = bc.getValueByteBuffer();
                    position = bc.getValuePosition();
                    length = bc.getValueLength();
                }
                default -> {
                    buffer = bc.getTagsByteBuffer();
                    position = bc.getTagsPosition();
                    length = bc.getTagsLength();
                }
            }
            buffer.get(position, dst, at, length);
            return at + length;
        }
        byte[] array;
        int offset;
        int length;
        switch (component) {
            case ROW -> {
                array = cell.getRowArray();
                offset = cell.getRowOffset();
                length = cell.getRowLength();
            }
            case FAMILY -> {
                array = cell.getFamilyArray();
                offset = cell.getFamilyOffset();
                length = cell.getFamilyLength();
            }
            case QUALIFIER -> {
                array = cell.getQualifierArray();
                offset = cell.getQualifierOffset();
                length = cell.getQualifierLength();
            }
            case VALUE -> {
                array = cell.getValueArray();
                offset = cell.getValueOffset();
                length = cell.getValueLength();
            }
            default -> {
                array = cell.getTagsArray();
                offset = cell.getTagsOffset();
                length = cell.getTagsLength();
            }
        }
        System.arraycopy(array, offset, dst, at, length);
        return at + length;
    }

    private static int checkedLength(
            int rowLength, int familyLength, int qualifierLength, int valueLength, int tagsLength) {
        if (rowLength < 0 || rowLength > KeyValueFormat.MAX_ROW_LENGTH) {
            throw new IllegalArgumentException(
                    "row length " + rowLength + " is outside 0.." + KeyValueFormat.MAX_ROW_LENGTH);
        }
        if (familyLength < 0 || familyLength > KeyValueFormat.MAX_FAMILY_LENGTH) {
            throw new IllegalArgumentException(
                    "family length " + familyLength + " is outside 0.." + KeyValueFormat.MAX_FAMILY_LENGTH);
        }
        if (qualifierLength < 0 || valueLength < 0) {
            throw new IllegalArgumentException(
                    "negative qualifier (" + qualifierLength + ") or value (" + valueLength + ") length");
        }
        if (tagsLength < 0 || tagsLength > KeyValueFormat.MAX_TAGS_LENGTH) {
            throw new IllegalArgumentException(
                    "tags length " + tagsLength + " is outside 0.." + KeyValueFormat.MAX_TAGS_LENGTH);
        }
        long length =
                KeyValueFormat.serializedLength(rowLength, familyLength, qualifierLength, valueLength, tagsLength);
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a cell of " + length + " bytes is too large to serialize");
        }
        return (int) length;
    }
}
