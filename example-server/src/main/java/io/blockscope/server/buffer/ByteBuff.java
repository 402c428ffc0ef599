package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * A read-mostly view over one or more NIO buffers, addressed by absolute index.
 *
 * <p>NIO buffers cannot be subclassed, and a cached block may straddle two of the bucket cache's
 * 4 MB buffers, so the read path works on this narrow type instead. It is an abstract class rather
 * than an interface on purpose: with exactly two concrete kinds every call site stays at most
 * bimorphic, which C2 inlines (see the seed's InstanceOfCost experiment).
 *
 * <p>All accessors are absolute: a view has no position or limit, so views can be shared between
 * threads without copying state. Multi-byte values are big-endian.
 */
public abstract class ByteBuff {

    ByteBuff() {
        // only the two kinds in this package
    }

    /** Wraps one buffer from its position to its limit; the buffer's own position is never moved. */
    public static ByteBuff wrap(ByteBuffer buffer) {
        return new SingleByteBuff(buffer.slice());
    }

    /** Wraps an array, for blocks that live on the heap. */
    public static ByteBuff wrap(byte[] array) {
        return new SingleByteBuff(ByteBuffer.wrap(array));
    }

    /** Joins buffers end to end (each from its position to its limit) into one view. */
    public static ByteBuff wrap(ByteBuffer... buffers) {
        if (buffers.length == 1) {
            return wrap(buffers[0]);
        }
        ByteBuffer[] slices = new ByteBuffer[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            slices[i] = buffers[i].slice();
        }
        return new MultiByteBuff(slices);
    }

    /** Number of bytes in this view. */
    public abstract int capacity();

    public abstract byte get(int index);

    public abstract short getShort(int index);

    public abstract int getInt(int index);

    public abstract long getLong(int index);

    /** Copies {@code length} bytes starting at {@code index} into {@code dst}. */
    public abstract void get(int index, byte[] dst, int dstOffset, int length);

    public abstract void put(int index, byte value);

    public abstract void putShort(int index, short value);

    public abstract void putInt(int index, int value);

    public abstract void putLong(int index, long value);

    /** Copies {@code length} bytes starting at {@code index} into {@code dst} at its position, advancing it. */
    public abstract void get(int index, ByteBuffer dst, int length);

    /** Writes {@code length} bytes of {@code src} at {@code index}; used when a block is stored into a bucket. */
    public abstract void put(int index, byte[] src, int srcOffset, int length);

    /** Writes {@code length} bytes of {@code src}, starting at {@code srcIndex}, at {@code index}. */
    public abstract void put(int index, ByteBuff src, int srcIndex, int length);

    /**
     * Writes {@code length} bytes of the NIO buffer {@code src}, starting at its absolute position
     * {@code srcPosition}, at {@code index}; {@code src}'s own position is not moved.
     */
    public abstract void put(int index, ByteBuffer src, int srcPosition, int length);

    /** A view of {@code [index, index + length)} sharing the same memory. */
    public abstract ByteBuff slice(int index, int length);

    /** True when the bytes live outside the Java heap. */
    public abstract boolean isDirect();

    /** Number of NIO buffers this view spans. */
    public abstract int bufferCount();

    /**
     * True when {@code [index, index + length)} lies inside one NIO buffer, so that
     * {@link #bufferAt(int)} and {@link #positionOf(int)} address all of it without a copy.
     */
    public abstract boolean isContiguous(int index, int length);

    /**
     * The NIO buffer holding byte {@code index}. It is shared: callers read it with absolute
     * accessors and must never move its position or limit.
     */
    public abstract ByteBuffer bufferAt(int index);

    /** The absolute position of byte {@code index} within {@link #bufferAt(int)}. */
    public abstract int positionOf(int index);

    /**
     * Feeds {@code [index, index + length)} to {@code checksum} without copying it onto the heap
     * (block and cell CRC32C checks). Allocates one short-lived view per NIO buffer touched.
     */
    public final void updateChecksum(Checksum checksum, int index, int length) {
        checkRange(index, length, capacity());
        int done = 0;
        while (done < length) {
            int at = index + done;
            int run = Math.min(length - done, contiguousFrom(at));
            checksum.update(bufferAt(at).slice(positionOf(at), run));
            done += run;
        }
    }

    /** A fresh on-heap copy of {@code [index, index + length)}. */
    public final byte[] toBytes(int index, int length) {
        byte[] copy = new byte[length];
        get(index, copy, 0, length);
        return copy;
    }

    /**
     * Unsigned lexicographic compare of two ranges, without copying or allocating when both ranges are
     * contiguous: {@link ByteBuffers}, on the JDK's {@code mismatch} intrinsics.
     */
    public static int compareTo(ByteBuff a, int aIndex, int aLength, ByteBuff b, int bIndex, int bLength) {
        if (a.isContiguous(aIndex, aLength) && b.isContiguous(bIndex, bLength)) {
            return ByteBuffers.compare(
                    a.bufferAt(aIndex),
                    a.positionOf(aIndex),
                    aLength,
                    b.bufferAt(bIndex),
                    b.positionOf(bIndex),
                    bLength);
        }
        return compareSlow(a, aIndex, aLength, b, bIndex, bLength);
    }

    /** Unsigned lexicographic compare of a range of this kind of view with a range of an array. */
    public static int compareTo(ByteBuff a, int aIndex, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.isContiguous(aIndex, aLength)) {
            return ByteBuffers.compare(a.bufferAt(aIndex), a.positionOf(aIndex), aLength, b, bOffset, bLength);
        }
        return compareSlow(a, aIndex, aLength, ByteBuff.wrap(b), bOffset, bLength);
    }

    /** The rare case of a range that straddles two NIO buffers: compare buffer piece by piece. */
    private static int compareSlow(ByteBuff a, int aIndex, int aLength, ByteBuff b, int bIndex, int bLength) {
        int common = Math.min(aLength, bLength);
        int done = 0;
        while (done < common) {
            int ai = aIndex + done;
            int bi = bIndex + done;
            int run = Math.min(common - done, Math.min(a.contiguousFrom(ai), b.contiguousFrom(bi)));
            int mismatch =
                    ByteBuffers.mismatch(a.bufferAt(ai), a.positionOf(ai), b.bufferAt(bi), b.positionOf(bi), run);
            if (mismatch >= 0) {
                return Byte.toUnsignedInt(a.get(ai + mismatch)) - Byte.toUnsignedInt(b.get(bi + mismatch));
            }
            done += run;
        }
        return aLength - bLength;
    }

    /** How many bytes from {@code index} onwards lie in the same NIO buffer. */
    abstract int contiguousFrom(int index);

    static void checkRange(int index, int length, int capacity) {
        if (index < 0 || length < 0 || index > capacity - length) {
            throw new IndexOutOfBoundsException("range [" + index + ", " + index + " + " + length
                    + ") is outside a view of " + capacity + " bytes");
        }
    }
}
