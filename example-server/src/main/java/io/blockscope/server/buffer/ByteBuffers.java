package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Unsigned lexicographic compares of NIO buffer ranges, built on the JDK's vectorized
 * {@code mismatch} intrinsics ({@link Arrays#mismatch}, {@link Arrays#compareUnsigned} and
 * {@link ByteBuffer#mismatch}), never on byte loops or {@code Unsafe}.
 *
 * <p>Ranges are absolute ({@code position}, {@code length}); the buffers' own position and limit are
 * ignored and never moved, so shared buffers can be compared from any thread.
 *
 * <p>Array-backed buffers go straight to {@code Arrays}. {@code ByteBuffer.mismatch} only works on
 * whole buffers (position to limit), and the obvious way to get there, a {@code slice(position,
 * length)} per side, allocates on the read path: C2 removes the slices only when the whole compare
 * inlines into its caller, and {@code CellComparator.compareKeys} on a direct cell and an array cell
 * (three component compares) measured 360 B/op with slices ({@code RowCompareBenchmark}, see
 * docs/benchmarks-storage.md). So each thread keeps reusable views instead: a duplicate of the last
 * buffer it compared on each side and a wrapper of the last array, re-pointed at each range by
 * setting their position and limit. A view is made only when a thread moves to another buffer (a
 * cached block) or array, not per compare. The price is a thread-local lookup per compare, and each
 * thread keeping its last buffers and array reachable until its next compare.
 */
public final class ByteBuffers {

    private static final ThreadLocal<Views> VIEWS = ThreadLocal.withInitial(Views::new);

    private ByteBuffers() {
    }

    /** Compares {@code a[aPos, aPos + aLength)} with {@code b[bPos, bPos + bLength)}, bytes unsigned. */
    public static int compare(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = mismatch(a, aPos, b, bPos, common);
        if (i >= 0) {
            return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b.get(bPos + i));
        }
        return aLength - bLength;
    }

    /** Compares a buffer range with an array range, bytes unsigned. */
    public static int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            return Arrays.compareUnsigned(a.array(), aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        }
        Objects.checkFromIndexSize(aPos, aLength, a.capacity());
        Objects.checkFromIndexSize(bOffset, bLength, b.length);
        int common = Math.min(aLength, bLength);
        Views views = VIEWS.get();
        int i = views.first(a, aPos, common).mismatch(views.array(b, bOffset, common));
        if (i >= 0) {
            return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b[bOffset + i]);
        }
        return aLength - bLength;
    }

    /** True when the two ranges hold the same bytes. */
    public static boolean equals(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        return aLength == bLength && mismatch(a, aPos, b, bPos, aLength) < 0;
    }

    /**
     * Index of the first differing byte in {@code a[aPos, aPos + length)} and
     * {@code b[bPos, bPos + length)}, or -1 when they are equal.
     */
    public static int mismatch(ByteBuffer a, int aPos, ByteBuffer b, int bPos, int length) {
        if (a.hasArray() && b.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            int bOffset = b.arrayOffset() + bPos;
            return Arrays.mismatch(a.array(), aOffset, aOffset + length, b.array(), bOffset, bOffset + length);
        }
        Objects.checkFromIndexSize(aPos, length, a.capacity());
        Objects.checkFromIndexSize(bPos, length, b.capacity());
        Views views = VIEWS.get();
        return views.first(a, aPos, length).mismatch(views.second(b, bPos, length));
    }

    /**
     * One thread's reusable views: the last buffer seen on each side of a compare, and the last
     * array. Confined to its thread, and nothing runs between re-pointing a view and the mismatch
     * that reads it, so no state leaks from one compare into the next.
     */
    private static final class Views {
        private ByteBuffer firstSource;
        private ByteBuffer first;
        private ByteBuffer secondSource;
        private ByteBuffer second;
        private byte[] arraySource;
        private ByteBuffer array;

        ByteBuffer first(ByteBuffer source, int position, int length) {
            if (source != firstSource) {
                first = source.duplicate();
                firstSource = source;
            }
            return range(first, position, length);
        }

        ByteBuffer second(ByteBuffer source, int position, int length) {
            if (source != secondSource) {
                second = source.duplicate();
                secondSource = source;
            }
            return range(second, position, length);
        }

        ByteBuffer array(byte[] source, int offset, int length) {
            if (source != arraySource) {
                array = ByteBuffer.wrap(source);
                arraySource = source;
            }
            return range(array, offset, length);
        }

        /** A duplicate shares its source's indexes, so the range is the same absolute positions. */
        private static ByteBuffer range(ByteBuffer view, int position, int length) {
            view.limit(view.capacity()).position(position).limit(position + length);
            return view;
        }
    }
}
