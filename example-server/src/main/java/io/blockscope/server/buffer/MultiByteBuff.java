package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A view over several NIO buffers laid end to end: a block that straddles the boundary between two
 * of the bucket cache's 4 MB buffers. Reads inside one buffer delegate; reads across a boundary
 * assemble the value byte by byte (rare: at most one value per boundary).
 */
public final class MultiByteBuff extends ByteBuff {

    private final ByteBuffer[] items;
    /** starts[i] is the view index of items[i]'s first byte; starts[items.length] is the capacity. */
    private final int[] starts;

    MultiByteBuff(ByteBuffer[] items) {
        if (items.length == 0) {
            throw new IllegalArgumentException("a MultiByteBuff needs at least one buffer");
        }
        this.items = items;
        this.starts = new int[items.length + 1];
        boolean direct = items[0].isDirect();
        for (int i = 0; i < items.length; i++) {
            if (items[i].isDirect() != direct) {
                throw new IllegalArgumentException("cannot mix heap and direct buffers in one view");
            }
            starts[i + 1] = starts[i] + items[i].capacity();
        }
    }

    @Override
    public int capacity() {
        return starts[items.length];
    }

    /** Index into items of the buffer holding view byte {@code index}. */
    private int item(int index) {
        if (index < 0 || index >= capacity()) {
            throw new IndexOutOfBoundsException("index " + index + " is outside a view of " + capacity() + " bytes");
        }
        if (items.length == 2) {
            return index < starts[1] ? 0 : 1;
        }
        int found = Arrays.binarySearch(starts, 0, items.length, index);
        return found >= 0 ? found : -found - 2;
    }

    @Override
    public byte get(int index) {
        int i = item(index);
        return items[i].get(index - starts[i]);
    }

    @Override
    public short getShort(int index) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Short.BYTES <= items[i].capacity()) {
            return items[i].getShort(local);
        }
        return (short) readAcross(index, Short.BYTES);
    }

    @Override
    public int getInt(int index) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Integer.BYTES <= items[i].capacity()) {
            return items[i].getInt(local);
        }
        return (int) readAcross(index, Integer.BYTES);
    }

    @Override
    public long getLong(int index) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Long.BYTES <= items[i].capacity()) {
            return items[i].getLong(local);
        }
        return readAcross(index, Long.BYTES);
    }

    /** Big-endian value of {@code width} bytes that crosses a buffer boundary. */
    private long readAcross(int index, int width) {
        checkRange(index, width, capacity());
        long value = 0;
        for (int k = 0; k < width; k++) {
            value = (value << 8) | (get(index + k) & 0xFF);
        }
        return value;
    }

    @Override
    public void get(int index, byte[] dst, int dstOffset, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int i = item(index + done);
            int local = index + done - starts[i];
            int run = Math.min(length - done, items[i].capacity() - local);
            items[i].get(local, dst, dstOffset + done, run);
            done += run;
        }
    }

    @Override
    public void get(int index, ByteBuffer dst, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int i = item(index + done);
            int local = index + done - starts[i];
            int run = Math.min(length - done, items[i].capacity() - local);
            dst.put(dst.position(), items[i], local, run);
            dst.position(dst.position() + run);
            done += run;
        }
    }

    @Override
    public void put(int index, byte[] src, int srcOffset, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int i = item(index + done);
            int local = index + done - starts[i];
            int run = Math.min(length - done, items[i].capacity() - local);
            items[i].put(local, src, srcOffset + done, run);
            done += run;
        }
    }

    @Override
    public void put(int index, ByteBuff src, int srcIndex, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int i = item(index + done);
            int local = index + done - starts[i];
            int run = Math.min(length - done, items[i].capacity() - local);
            src.get(srcIndex + done, items[i].slice(local, run), run);
            done += run;
        }
    }

    @Override
    public ByteBuff slice(int index, int length) {
        checkRange(index, length, capacity());
        if (length == 0) {
            return new SingleByteBuff(ByteBuffer.allocate(0));
        }
        int first = item(index);
        int last = item(index + length - 1);
        if (first == last) {
            return new SingleByteBuff(items[first].slice(index - starts[first], length));
        }
        ByteBuffer[] parts = new ByteBuffer[last - first + 1];
        for (int i = first; i <= last; i++) {
            int from = Math.max(index, starts[i]) - starts[i];
            int to = Math.min(index + length, starts[i + 1]) - starts[i];
            parts[i - first] = items[i].slice(from, to - from);
        }
        return new MultiByteBuff(parts);
    }

    @Override
    public boolean isDirect() {
        return items[0].isDirect();
    }

    @Override
    public int bufferCount() {
        return items.length;
    }

    @Override
    public boolean isContiguous(int index, int length) {
        if (length == 0) {
            return true;
        }
        return item(index) == item(index + length - 1);
    }

    @Override
    public ByteBuffer bufferAt(int index) {
        return items[item(index)];
    }

    @Override
    public int positionOf(int index) {
        return index - starts[item(index)];
    }

    @Override
    int contiguousFrom(int index) {
        int i = item(index);
        return starts[i + 1] - index;
    }

    @Override
    public String toString() {
        return "MultiByteBuff[" + items.length + " buffers, " + (isDirect() ? "direct, " : "heap, ") + capacity() + " bytes]";
    }
}
