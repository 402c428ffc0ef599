package io.blockscope.server.cell;

import java.nio.ByteBuffer;

/**
 * A cell whose bytes live in NIO buffers (offheap bucket memory, usually): the server-side
 * extension of {@link Cell} from HBASE-11425.
 *
 * <p>It is an abstract class, not an interface: C2 inlines through a class hierarchy check where an
 * interface type check on a hot compare path defeats it (the seed's InstanceOfCost experiment).
 *
 * <p>For each component, {@code getXxxByteBuffer()} returns the backing buffer (shared: use
 * absolute reads only, never move its position) and {@code getXxxPosition()} the component's first
 * byte in it; the length comes from the {@link Cell} accessor.
 *
 * <p>The {@code getXxxArray()} methods work, but each call copies that component into a fresh
 * on-heap array and the matching {@code getXxxOffset()} is then 0. Each copy is a separate,
 * visible method ({@link #copyRow()} and so on) so profilers and the blockscope agent can see
 * which component was copied and who asked for it.
 */
public abstract class ByteBufferCell implements Cell {

    public abstract ByteBuffer getRowByteBuffer();

    public abstract int getRowPosition();

    public abstract ByteBuffer getFamilyByteBuffer();

    public abstract int getFamilyPosition();

    public abstract ByteBuffer getQualifierByteBuffer();

    public abstract int getQualifierPosition();

    public abstract ByteBuffer getValueByteBuffer();

    public abstract int getValuePosition();

    public abstract ByteBuffer getTagsByteBuffer();

    public abstract int getTagsPosition();

    @Override
    public final byte[] getRowArray() {
        return copyRow();
    }

    @Override
    public final int getRowOffset() {
        return 0;
    }

    @Override
    public final byte[] getFamilyArray() {
        return copyFamily();
    }

    @Override
    public final int getFamilyOffset() {
        return 0;
    }

    @Override
    public final byte[] getQualifierArray() {
        return copyQualifier();
    }

    @Override
    public final int getQualifierOffset() {
        return 0;
    }

    @Override
    public final byte[] getValueArray() {
        return copyValue();
    }

    @Override
    public final int getValueOffset() {
        return 0;
    }

    @Override
    public final byte[] getTagsArray() {
        return copyTags();
    }

    @Override
    public final int getTagsOffset() {
        return 0;
    }

    /** The copy-to-heap fallback for the row: a fresh array on every call. */
    protected byte[] copyRow() {
        return copy(getRowByteBuffer(), getRowPosition(), getRowLength());
    }

    protected byte[] copyFamily() {
        return copy(getFamilyByteBuffer(), getFamilyPosition(), getFamilyLength());
    }

    protected byte[] copyQualifier() {
        return copy(getQualifierByteBuffer(), getQualifierPosition(), getQualifierLength());
    }

    protected byte[] copyValue() {
        return copy(getValueByteBuffer(), getValuePosition(), getValueLength());
    }

    protected byte[] copyTags() {
        return copy(getTagsByteBuffer(), getTagsPosition(), getTagsLength());
    }

    private static byte[] copy(ByteBuffer buffer, int position, int length) {
        byte[] out = new byte[length];
        buffer.get(position, out, 0, length);
        return out;
    }
}
