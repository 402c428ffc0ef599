package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Unsigned lexicographic compares of NIO buffer ranges, built on the JDK's vectorized
 * {@code mismatch} intrinsics ({@link Arrays#mismatch}, {@link Arrays#compareUnsigned} and
 * {@link ByteBuffer#mismatch}), never on byte loops or {@code Unsafe}.
 *
 * <p>Ranges are absolute ({@code position}, {@code length}); the buffers' own position and limit are
 * ignored and never moved, so shared buffers can be compared from any thread.
 *
 * <p>Array-backed buffers go straight to {@code Arrays}. {@code ByteBuffer.mismatch} only works on
 * whole buffers (position to limit), so a direct range is taken as a {@code slice(position, length)}
 * view. Those views never escape the compare: once it is inlined, C2's escape analysis replaces them
 * with scalars. {@code RowCompareBenchmark} checks that with {@code -prof gc} (0 B/op, see
 * docs/benchmarks-storage.md).
 */
public final class ByteBuffers {

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
        int common = Math.min(aLength, bLength);
        int i = a.slice(aPos, common).mismatch(ByteBuffer.wrap(b, bOffset, common).slice());
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
        return a.slice(aPos, length).mismatch(b.slice(bPos, length));
    }
}
