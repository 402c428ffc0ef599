package io.blockscope.server.buffer;

import java.nio.ByteBuffer;

/**
 * Unsigned lexicographic compares of NIO buffer ranges, built on the JDK's vectorized
 * {@code mismatch} intrinsics ({@link java.util.Arrays#mismatch}, {@link java.util.Arrays#compareUnsigned}
 * and {@link ByteBuffer#mismatch}), never on byte loops or {@code Unsafe}.
 *
 * <p>Ranges are absolute ({@code position}, {@code length}); the buffers' own position and limit are
 * ignored and never moved, so shared buffers can be compared from any thread.
 *
 * <p>Array-backed buffers go straight to {@code Arrays}. {@code ByteBuffer.mismatch} only works on
 * whole buffers (position to limit), and the obvious way to get there, a {@code slice(position,
 * length)} per side, allocates on the read path: C2 removes the slices only when the whole compare
 * inlines into its caller, and whether it does depends on compile order: {@code CellComparator.compareKeys}
 * on a direct cell and an array cell allocated 360 B/op with slices in three of five JDK 17 runs and
 * 0 B/op in the others ({@code RowCompareBenchmark}, docs/benchmarks.md). So the compares
 * run on the calling thread's {@link RangeComparer}, which re-points reusable views instead:
 * allocation-free whatever the JIT decides.
 *
 * <p>On direct memory C2's AVX {@code vectorizedMismatch} intrinsic does not apply (it needs both
 * sides to be arrays); the JDK then runs its own fallback, eight bytes per step. Heap ranges get the
 * full intrinsic through {@code Arrays}.
 */
public final class ByteBuffers {

    private static final ThreadLocal<RangeComparer> COMPARER = ThreadLocal.withInitial(RangeComparer::new);

    private ByteBuffers() {}

    /**
     * The calling thread's comparer. A loop of compares fetches it once rather than paying a
     * thread-local lookup per compare; it must not be handed to another thread.
     */
    public static RangeComparer comparer() {
        return COMPARER.get();
    }

    /** Compares {@code a[aPos, aPos + aLength)} with {@code b[bPos, bPos + bLength)}, bytes unsigned. */
    public static int compare(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        if (a.hasArray() && b.hasArray()) {
            return java.util.Arrays.compareUnsigned(
                    a.array(),
                    a.arrayOffset() + aPos,
                    a.arrayOffset() + aPos + aLength,
                    b.array(),
                    b.arrayOffset() + bPos,
                    b.arrayOffset() + bPos + bLength);
        }
        return COMPARER.get().compare(a, aPos, aLength, b, bPos, bLength);
    }

    /** Compares a buffer range with an array range, bytes unsigned. */
    public static int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            return java.util.Arrays.compareUnsigned(
                    a.array(), aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        }
        return COMPARER.get().compare(a, aPos, aLength, b, bOffset, bLength);
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
        return COMPARER.get().mismatch(a, aPos, b, bPos, length);
    }
}
