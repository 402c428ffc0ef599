package io.blockscope.server.buffer;

import java.nio.ByteBuffer;

/** A view over exactly one NIO buffer: the common case for cached blocks. Thin delegation. */
public final class SingleByteBuff extends ByteBuff {

    private final ByteBuffer buf;

    /** {@code buf} is used from index 0 to its capacity; its position and limit are ignored. */
    SingleByteBuff(ByteBuffer buf) {
        this.buf = buf;
    }

    @Override
    public int capacity() {
        return buf.capacity();
    }

    @Override
    public byte get(int index) {
        return buf.get(index);
    }

    @Override
    public short getShort(int index) {
        return buf.getShort(index);
    }

    @Override
    public int getInt(int index) {
        return buf.getInt(index);
    }

    @Override
    public long getLong(int index) {
        return buf.getLong(index);
    }

    @Override
    public void get(int index, byte[] dst, int dstOffset, int length) {
        buf.get(index, dst, dstOffset, length);
    }

    @Override
    public void get(int index, ByteBuffer dst, int length) {
        checkRange(index, length, buf.capacity());
        dst.put(dst.position(), buf, index, length);
        dst.position(dst.position() + length);
    }

    @Override
    public void put(int index, byte value) {
        buf.put(index, value);
    }

    @Override
    public void putShort(int index, short value) {
        buf.putShort(index, value);
    }

    @Override
    public void putInt(int index, int value) {
        buf.putInt(index, value);
    }

    @Override
    public void putLong(int index, long value) {
        buf.putLong(index, value);
    }

    @Override
    public void put(int index, byte[] src, int srcOffset, int length) {
        buf.put(index, src, srcOffset, length);
    }

    @Override
    public void put(int index, ByteBuff src, int srcIndex, int length) {
        checkRange(index, length, buf.capacity());
        ByteBuffer target = buf.slice(index, length);
        src.get(srcIndex, target, length);
    }

    @Override
    public void put(int index, ByteBuffer src, int srcPosition, int length) {
        buf.put(index, src, srcPosition, length);
    }

    @Override
    public ByteBuff slice(int index, int length) {
        checkRange(index, length, buf.capacity());
        return new SingleByteBuff(buf.slice(index, length));
    }

    @Override
    public boolean isDirect() {
        return buf.isDirect();
    }

    @Override
    public int bufferCount() {
        return 1;
    }

    @Override
    public boolean isContiguous(int index, int length) {
        return true;
    }

    @Override
    public ByteBuffer bufferAt(int index) {
        return buf;
    }

    @Override
    public int positionOf(int index) {
        return index;
    }

    @Override
    int contiguousFrom(int index) {
        return buf.capacity() - index;
    }

    @Override
    public String toString() {
        return "SingleByteBuff[" + (buf.isDirect() ? "direct, " : "heap, ") + buf.capacity() + " bytes]";
    }
}
