package io.blockscope.server.cache.bucket;

import io.blockscope.server.buffer.ByteBuff;
import java.nio.ByteBuffer;

/**
 * An io engine over an array of NIO buffers of {@link #BUFFER_SIZE} bytes: direct buffers for
 * {@code offheap}, heap buffers for {@code heap}. All memory is allocated up front, as HBase does,
 * so a cache that does not fit fails at startup instead of under load.
 *
 * <p>Buffer boundaries are independent of bucket and slot boundaries, so a block may start near the
 * end of one buffer and continue in the next: its view is then a {@code MultiByteBuff}. The buffers'
 * positions and limits are never moved; every access is absolute, which makes them safe to share.
 */
public final class ByteBufferIOEngine implements IOEngine {

    /** Size of each backing buffer (the last one may be shorter). */
    public static final int BUFFER_SIZE = 4 << 20;

    private final ByteBuffer[] buffers;
    private final long capacity;
    private final IOEngineType type;

    private ByteBufferIOEngine(long capacity, boolean direct) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("io engine capacity must be positive, got " + capacity + " bytes");
        }
        long count = (capacity + BUFFER_SIZE - 1) / BUFFER_SIZE;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("io engine capacity " + capacity + " bytes is too large");
        }
        this.capacity = capacity;
        this.type = direct ? IOEngineType.OFFHEAP : IOEngineType.HEAP;
        this.buffers = new ByteBuffer[(int) count];
        for (int i = 0; i < buffers.length; i++) {
            int size = (int) Math.min(BUFFER_SIZE, capacity - (long) i * BUFFER_SIZE);
            buffers[i] = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        }
    }

    /** Direct buffers: the cache lives outside the Java heap. */
    public static ByteBufferIOEngine offheap(long capacity) {
        return new ByteBufferIOEngine(capacity, true);
    }

    /** Heap buffers: the cache is a few large, long-lived heap arrays. */
    public static ByteBufferIOEngine heap(long capacity) {
        return new ByteBufferIOEngine(capacity, false);
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public boolean supportsSharedViews() {
        return true;
    }

    @Override
    public boolean isOffHeap() {
        return type == IOEngineType.OFFHEAP;
    }

    @Override
    public IOEngineType type() {
        return type;
    }

    /** Number of backing buffers. */
    public int bufferCount() {
        return buffers.length;
    }

    @Override
    public ByteBuff view(long offset, int length) {
        IOEngine.checkRange(offset, length, capacity);
        int first = bufferIndex(offset);
        int position = positionInBuffer(offset);
        if (position + length <= buffers[first].capacity()) {
            return ByteBuff.wrap(buffers[first].slice(position, length));
        }
        int last = bufferIndex(offset + length - 1);
        ByteBuffer[] pieces = new ByteBuffer[last - first + 1];
        int done = 0;
        for (int i = first; i <= last; i++) {
            int from = i == first ? position : 0;
            int run = Math.min(length - done, buffers[i].capacity() - from);
            pieces[i - first] = buffers[i].slice(from, run);
            done += run;
        }
        return ByteBuff.wrap(pieces);
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        IOEngine.checkRange(offset, length, capacity);
        int done = 0;
        while (done < length) {
            long at = offset + done;
            ByteBuffer buffer = buffers[bufferIndex(at)];
            int position = positionInBuffer(at);
            int run = Math.min(length - done, buffer.capacity() - position);
            buffer.get(position, dst, dstOffset + done, run);
            done += run;
        }
    }

    @Override
    public void write(long offset, ByteBuff src, int srcIndex, int length) {
        IOEngine.checkRange(offset, length, capacity);
        int done = 0;
        while (done < length) {
            long at = offset + done;
            ByteBuffer buffer = buffers[bufferIndex(at)];
            int position = positionInBuffer(at);
            int run = Math.min(length - done, buffer.capacity() - position);
            src.get(srcIndex + done, buffer.slice(position, run), run);
            done += run;
        }
    }

    private static int bufferIndex(long offset) {
        return (int) (offset / BUFFER_SIZE);
    }

    private static int positionInBuffer(long offset) {
        return (int) (offset % BUFFER_SIZE);
    }

    /** Nothing to do: the buffers go with the engine, once no view of them is reachable. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return "ByteBufferIOEngine[" + type.label() + ", " + buffers.length + " x " + BUFFER_SIZE + " bytes]";
    }
}
