package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Compares byte ranges of NIO buffers and arrays with the JDK's {@code mismatch} intrinsics, without
 * allocating: the allocation-free core of {@link ByteBuffers}.
 *
 * <p>{@link ByteBuffer#mismatch} compares whole buffers (position to limit). Taking each range as a
 * {@code slice()} allocates whenever C2's escape analysis does not remove the slice, which it often
 * does not in real callers (see {@link ByteBuffers}). A comparer instead keeps one view per side,
 * a duplicate of the last buffer (or a wrapper of the last array) it compared, and re-points it at
 * each range by setting its limit and position. A new view is made only when the buffer or array
 * changes: once per cached block, not once per compare.
 *
 * <p>A comparer is confined to one thread. {@link ByteBuffers#comparer()} hands out the calling
 * thread's own; a loop that compares many ranges (a seek through a block) fetches it once instead
 * of paying a thread-local lookup per compare. Nothing runs between re-pointing a view and the
 * mismatch that reads it, so nested use of the same comparer is safe. The views keep the last
 * buffers and array reachable until the next compare replaces them.
 */
public final class RangeComparer {

    // null until the first compare points them at something
    private @Nullable ByteBuffer firstSource;
    private @Nullable ByteBuffer first;
    private @Nullable ByteBuffer secondSource;
    private @Nullable ByteBuffer second;
    private byte @Nullable [] arraySource;
    private @Nullable ByteBuffer array;

    /** Compares {@code a[aPos, aPos + aLength)} with {@code b[bPos, bPos + bLength)}, bytes unsigned. */
    public int compare(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = mismatch(a, aPos, b, bPos, common);
        if (i >= 0) {
            return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b.get(bPos + i));
        }
        return aLength - bLength;
    }

    /** Compares a buffer range with an array range, bytes unsigned. */
    public int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            return Arrays.compareUnsigned(a.array(), aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        }
        int common = Math.min(aLength, bLength);
        int i = first(a, aPos, common).mismatch(array(b, bOffset, common));
        if (i >= 0) {
            return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b[bOffset + i]);
        }
        return aLength - bLength;
    }

    /**
     * Compares a range of a view with an array range: without a copy when the range lies in one NIO
     * buffer, piece by piece in the rare case that it straddles two.
     */
    public int compare(ByteBuff a, int aIndex, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.isContiguous(aIndex, aLength)) {
            return compare(a.bufferAt(aIndex), a.positionOf(aIndex), aLength, b, bOffset, bLength);
        }
        return ByteBuff.compareTo(a, aIndex, aLength, b, bOffset, bLength);
    }

    /**
     * Index of the first differing byte in {@code a[aPos, aPos + length)} and
     * {@code b[bPos, bPos + length)}, or -1 when they are equal.
     */
    public int mismatch(ByteBuffer a, int aPos, ByteBuffer b, int bPos, int length) {
        if (a.hasArray() && b.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            int bOffset = b.arrayOffset() + bPos;
            return Arrays.mismatch(a.array(), aOffset, aOffset + length, b.array(), bOffset, bOffset + length);
        }
        return first(a, aPos, length).mismatch(second(b, bPos, length));
    }

    @SuppressWarnings("ReferenceEquality") // the same buffer object, not equal contents
    private ByteBuffer first(ByteBuffer source, int position, int length) {
        ByteBuffer view = first;
        if (view == null || source != firstSource) {
            view = source.duplicate();
            first = view;
            firstSource = source;
        }
        return range(view, position, length);
    }

    @SuppressWarnings("ReferenceEquality") // the same buffer object, not equal contents
    private ByteBuffer second(ByteBuffer source, int position, int length) {
        ByteBuffer view = second;
        if (view == null || source != secondSource) {
            view = source.duplicate();
            second = view;
            secondSource = source;
        }
        return range(view, position, length);
    }

    @SuppressWarnings("ReferenceEquality") // the same buffer object, not equal contents
    private ByteBuffer array(byte[] source, int offset, int length) {
        ByteBuffer view = array;
        if (view == null || source != arraySource) {
            view = ByteBuffer.wrap(source);
            array = view;
            arraySource = source;
        }
        return range(view, offset, length);
    }

    /**
     * Points a view at {@code [position, position + length)}. A duplicate shares its source's
     * indexes, so these are the caller's absolute positions. Setting the limit first never fails
     * (it pulls the position back if needed); the buffer's own checks reject a range outside it.
     */
    private static ByteBuffer range(ByteBuffer view, int position, int length) {
        if (position < 0 || length < 0) {
            throw new IndexOutOfBoundsException("range [" + position + ", " + position + " + " + length + ")");
        }
        try {
            return view.limit(position + length).position(position);
        } catch (IllegalArgumentException e) {
            throw new IndexOutOfBoundsException("range [" + position + ", " + position + " + " + length
                    + ") is outside a buffer of " + view.capacity() + " bytes");
        }
    }
}
