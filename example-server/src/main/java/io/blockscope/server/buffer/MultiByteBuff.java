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
        // Empty pieces would give two buffers the same start and break the index lookup.
        this.items = withoutEmpty(items);
        this.starts = new int[this.items.length + 1];
        boolean direct = this.items[0].isDirect();
        for (int i = 0; i < this.items.length; i++) {
            if (this.items[i].isDirect() != direct) {
                throw new IllegalArgumentException("cannot mix heap and direct buffers in one view");
            }
            long end = (long) starts[i] + this.items[i].capacity();
            if (end > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a view is limited to " + Integer.MAX_VALUE + " bytes");
            }
            starts[i + 1] = (int) end;
        }
    }

    private static ByteBuffer[] withoutEmpty(ByteBuffer[] items) {
        int nonEmpty = 0;
        for (ByteBuffer item : items) {
            if (item.capacity() > 0) {
                nonEmpty++;
            }
        }
        if (nonEmpty == items.length) {
            return items;
        }
        if (nonEmpty == 0) {
            return new ByteBuffer[] {items[0]};
        }
        ByteBuffer[] kept = new ByteBuffer[nonEmpty];
        int k = 0;
        for (ByteBuffer item : items) {
            if (item.capacity() > 0) {
                kept[k++] = item;
            }
        }
        return kept;
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
        return find(index);
    }

    /**
     * Like {@link #item} but also accepts {@code index == capacity()}, mapped to the last buffer, so
     * that an empty range at the very end (the empty tags of a block's last cell) has an address.
     */
    private int itemForRange(int index) {
        if (index == capacity()) {
            return items.length - 1;
        }
        return item(index);
    }

    private int find(int index) {
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
    public void put(int index, byte value) {
        int i = item(index);
        items[i].put(index - starts[i], value);
    }

    @Override
    public void putShort(int index, short value) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Short.BYTES <= items[i].capacity()) {
            items[i].putShort(local, value);
        } else {
            writeAcross(index, value, Short.BYTES);
        }
    }

    @Override
    public void putInt(int index, int value) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Integer.BYTES <= items[i].capacity()) {
            items[i].putInt(local, value);
        } else {
            writeAcross(index, value, Integer.BYTES);
        }
    }

    @Override
    public void putLong(int index, long value) {
        int i = item(index);
        int local = index - starts[i];
        if (local + Long.BYTES <= items[i].capacity()) {
            items[i].putLong(local, value);
        } else {
            writeAcross(index, value, Long.BYTES);
        }
    }

    /** Big-endian write of a {@code width}-byte value that crosses a buffer boundary. */
    private void writeAcross(int index, long value, int width) {
        checkRange(index, width, capacity());
        for (int k = 0; k < width; k++) {
            put(index + k, (byte) (value >>> (8 * (width - 1 - k))));
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
    public void put(int index, ByteBuffer src, int srcPosition, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int i = item(index + done);
            int local = index + done - starts[i];
            int run = Math.min(length - done, items[i].capacity() - local);
            items[i].put(local, src, srcPosition + done, run);
            done += run;
        }
    }

    @Override
    public ByteBuff slice(int index, int length) {
        checkRange(index, length, capacity());
        if (length == 0) {
            return new SingleByteBuff(items[0].slice(0, 0));
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
        checkRange(index, length, capacity());
        return find(index) == find(index + length - 1);
    }

    @Override
    public ByteBuffer bufferAt(int index) {
        return items[itemForRange(index)];
    }

    @Override
    public int positionOf(int index) {
        return index - starts[itemForRange(index)];
    }

    @Override
    int contiguousFrom(int index) {
        int i = itemForRange(index);
        return starts[i + 1] - index;
    }

    @Override
    public String toString() {
        return "MultiByteBuff[" + items.length + " buffers, " + (isDirect() ? "direct, " : "heap, ") + capacity()
                + " bytes]";
    }
}
