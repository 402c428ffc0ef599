package io.blockscope.agenttest.host;

import io.blockscope.server.cell.ByteBufferCell;
import java.nio.ByteBuffer;

/** A buffer-backed cell over a direct buffer: row, family, qualifier, value, tags laid end to end. */
public final class DirectCell extends ByteBufferCell {

    private final ByteBuffer buffer;
    private final int[] offsets = new int[5];
    private final int[] lengths;

    public DirectCell(int row, int family, int qualifier, int value, int tags) {
        lengths = new int[] {row, family, qualifier, value, tags};
        buffer = ByteBuffer.allocateDirect(row + family + qualifier + value + tags);
        int at = 0;
        for (int i = 0; i < 5; i++) {
            offsets[i] = at;
            at += lengths[i];
        }
        for (int i = 0; i < buffer.capacity(); i++) {
            buffer.put(i, (byte) i);
        }
    }

    @Override
    public ByteBuffer getRowByteBuffer() {
        return buffer;
    }

    @Override
    public int getRowPosition() {
        return offsets[0];
    }

    @Override
    public short getRowLength() {
        return (short) lengths[0];
    }

    @Override
    public ByteBuffer getFamilyByteBuffer() {
        return buffer;
    }

    @Override
    public int getFamilyPosition() {
        return offsets[1];
    }

    @Override
    public byte getFamilyLength() {
        return (byte) lengths[1];
    }

    @Override
    public ByteBuffer getQualifierByteBuffer() {
        return buffer;
    }

    @Override
    public int getQualifierPosition() {
        return offsets[2];
    }

    @Override
    public int getQualifierLength() {
        return lengths[2];
    }

    @Override
    public ByteBuffer getValueByteBuffer() {
        return buffer;
    }

    @Override
    public int getValuePosition() {
        return offsets[3];
    }

    @Override
    public int getValueLength() {
        return lengths[3];
    }

    @Override
    public ByteBuffer getTagsByteBuffer() {
        return buffer;
    }

    @Override
    public int getTagsPosition() {
        return offsets[4];
    }

    @Override
    public int getTagsLength() {
        return lengths[4];
    }

    @Override
    public long getTimestamp() {
        return 42;
    }
}
