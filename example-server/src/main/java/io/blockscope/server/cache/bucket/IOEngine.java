package io.blockscope.server.cache.bucket;

import io.blockscope.server.buffer.ByteBuff;

/**
 * The memory a bucket cache keeps its blocks in, addressed by absolute offset from 0 to
 * {@link #capacity()}. Where the memory is (heap, offheap, a file) decides whether a hit can be
 * served without copying: only engines with {@link #supportsSharedViews()} can hand out views.
 *
 * <p>Implementations are safe for concurrent use: reads and writes of disjoint ranges never
 * interfere, and the bucket cache never writes a range while it is read.
 */
public interface IOEngine extends AutoCloseable {

    /** Bytes addressable by this engine. */
    long capacity();

    /** True when {@link #view} can expose the engine's memory to readers without a copy. */
    boolean supportsSharedViews();

    /** True when the memory lives outside the Java heap (direct buffers or a file). */
    boolean isOffHeap();

    /**
     * A view of {@code [offset, offset + length)} sharing the engine's memory; a
     * {@code MultiByteBuff} when the range straddles two of the engine's buffers.
     *
     * @throws UnsupportedOperationException when {@link #supportsSharedViews()} is false
     */
    ByteBuff view(long offset, int length);

    /** Copies {@code length} bytes at {@code offset} into {@code dst}. */
    void read(long offset, byte[] dst, int dstOffset, int length);

    /** Stores {@code length} bytes of {@code src}, starting at {@code srcIndex}, at {@code offset}. */
    void write(long offset, ByteBuff src, int srcIndex, int length);

    /** The engine's name in configuration: {@code offheap}, {@code heap} or {@code file}. */
    IOEngineType type();

    /** Releases the engine's resources; views handed out earlier must no longer be read. */
    @Override
    void close();

    /** Throws unless {@code [offset, offset + length)} lies inside {@code [0, capacity)}. */
    static void checkRange(long offset, int length, long capacity) {
        if (offset < 0 || length < 0 || offset > capacity - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + " + " + length
                    + ") is outside an io engine of " + capacity + " bytes");
        }
    }
}
