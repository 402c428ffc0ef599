package io.blockscope.server.rpc;

import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.KeyValueFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary cell block: how RPC responses carry cells.
 *
 * <pre>
 * block := magic "BSC1" | cellCount:int32 | cell{cellCount}
 * cell  := one cell in {@link KeyValueFormat} (the store file's own cell layout)
 * </pre>
 * Big-endian. Because the layout is the data blocks' own, a cell goes into a response as bulk
 * copies straight from the cache's buffers into the response buffer: no heap arrays on the way.
 */
public final class CellBlock {

    public static final String CONTENT_TYPE = "application/x-blockscope-cellblock";
    static final int MAGIC = ('B' << 24) | ('S' << 16) | ('C' << 8) | '1';
    /** Bytes before the first cell. */
    public static final int HEADER_LENGTH = 8;

    private CellBlock() {}

    /** Encoded size of one cell. */
    public static int encodedLength(Cell cell) {
        return (int) KeyValueFormat.serializedLength(
                cell.getRowLength(),
                cell.getFamilyLength(),
                cell.getQualifierLength(),
                cell.getValueLength(),
                cell.getTagsLength());
    }

    /** Writes the block header at {@code dst}'s position, advancing it. */
    public static void writeHeader(ByteBuffer dst, int cellCount) {
        dst.putInt(MAGIC).putInt(cellCount);
    }

    /**
     * Writes one cell at {@code dst}'s position, advancing it; {@code dst} must have
     * {@link #encodedLength} bytes left. Buffer-backed cells are read through their buffer accessors.
     */
    public static void encode(Cell cell, ByteBuffer dst) {
        if (cell instanceof BufferedKeyValue kv) {
            // Already in this layout in the cache's buffer: one bulk copy, buffer to buffer.
            put(dst, kv.buffer(), kv.position(), kv.serializedLength());
            return;
        }
        if (cell instanceof ArrayCell ac) {
            dst.put(ac.bytes(), ac.offset(), ac.serializedLength());
            return;
        }
        int rowLength = cell.getRowLength();
        int familyLength = cell.getFamilyLength();
        int qualifierLength = cell.getQualifierLength();
        int valueLength = cell.getValueLength();
        int tagsLength = cell.getTagsLength();
        dst.putInt(KeyValueFormat.keyLength(rowLength, familyLength, qualifierLength));
        dst.putInt(valueLength);
        dst.putShort((short) tagsLength);
        dst.putShort((short) rowLength);
        if (cell instanceof ByteBufferCell bb) {
            put(dst, bb.getRowByteBuffer(), bb.getRowPosition(), rowLength);
            dst.put((byte) familyLength);
            put(dst, bb.getFamilyByteBuffer(), bb.getFamilyPosition(), familyLength);
            put(dst, bb.getQualifierByteBuffer(), bb.getQualifierPosition(), qualifierLength);
            dst.putLong(cell.getTimestamp());
            put(dst, bb.getValueByteBuffer(), bb.getValuePosition(), valueLength);
            if (tagsLength > 0) {
                put(dst, bb.getTagsByteBuffer(), bb.getTagsPosition(), tagsLength);
            }
        } else {
            dst.put(cell.getRowArray(), cell.getRowOffset(), rowLength);
            dst.put((byte) familyLength);
            dst.put(cell.getFamilyArray(), cell.getFamilyOffset(), familyLength);
            dst.put(cell.getQualifierArray(), cell.getQualifierOffset(), qualifierLength);
            dst.putLong(cell.getTimestamp());
            dst.put(cell.getValueArray(), cell.getValueOffset(), valueLength);
            if (tagsLength > 0) {
                dst.put(cell.getTagsArray(), cell.getTagsOffset(), tagsLength);
            }
        }
    }

    private static void put(ByteBuffer dst, ByteBuffer src, int position, int length) {
        int at = dst.position();
        dst.put(at, src, position, length);
        dst.position(at + length);
    }

    /**
     * Decodes a whole block (client side).
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed cell block
     */
    public static List<ClientCell> decode(ByteBuffer block) {
        ByteBuffer in = block.duplicate();
        if (in.remaining() < HEADER_LENGTH || in.getInt() != MAGIC) {
            throw new IllegalArgumentException("not a cell block: missing BSC1 magic");
        }
        int count = in.getInt();
        if (count < 0) {
            throw new IllegalArgumentException("bad cell block: negative cell count " + count);
        }
        List<ClientCell> cells = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            cells.add(decodeCell(in, i));
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("bad cell block: " + in.remaining() + " bytes after the last cell");
        }
        return cells;
    }

    private static ClientCell decodeCell(ByteBuffer in, int index) {
        try {
            int keyLength = in.getInt();
            int valueLength = in.getInt();
            int tagsLength = in.getShort() & 0xFFFF;
            int rowLength = in.getShort() & 0xFFFF;
            byte[] row = bytes(in, rowLength);
            int familyLength = in.get() & 0xFF;
            byte[] family = bytes(in, familyLength);
            int qualifierLength = keyLength - KeyValueFormat.KEY_OVERHEAD - rowLength - familyLength;
            if (qualifierLength < 0 || valueLength < 0) {
                throw new IllegalArgumentException("bad cell block: cell " + index + " has inconsistent lengths");
            }
            byte[] qualifier = bytes(in, qualifierLength);
            long timestamp = in.getLong();
            byte[] value = bytes(in, valueLength);
            in.position(in.position() + checkedSkip(in, tagsLength));
            return new ClientCell(row, family, qualifier, timestamp, value);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("bad cell block: truncated in cell " + index);
        }
    }

    private static int checkedSkip(ByteBuffer in, int length) {
        if (length > in.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        return length;
    }

    private static byte[] bytes(ByteBuffer in, int length) {
        if (length > in.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        byte[] out = new byte[length];
        in.get(out);
        return out;
    }
}
