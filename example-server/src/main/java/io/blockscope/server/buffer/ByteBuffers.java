package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Compares of NIO buffer ranges on top of the JDK's vectorized {@code mismatch} intrinsics.
 *
 * <p>{@code ByteBuffer.mismatch} works on whole buffers (position to limit), so ranges are taken
 * as {@code slice(index, length)} views. Those views are short-lived and, once the compare is
 * inlined, C2's escape analysis removes them; the row-compare JMH benchmark checks that with
 * {@code -prof gc}.
 */
final class ByteBuffers {

    private ByteBuffers() {
    }

    static int compare(ByteBuffer a, int aPos, int aLength, ByteBuffer b, int bPos, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = mismatch(a, aPos, b, bPos, common);
        if (i >= 0) {
            return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b.get(bPos + i));
        }
        return aLength - bLength;
    }

    static int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
        if (a.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            return Arrays.compareUnsigned(a.array(), aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
        }
        return compare(a, aPos, aLength, ByteBuffer.wrap(b), bOffset, bLength);
    }

    /** Index of the first differing byte in the first {@code length} bytes, or -1 if none differ. */
    static int mismatch(ByteBuffer a, int aPos, ByteBuffer b, int bPos, int length) {
        if (a.hasArray() && b.hasArray()) {
            int aOffset = a.arrayOffset() + aPos;
            int bOffset = b.arrayOffset() + bPos;
            return Arrays.mismatch(a.array(), aOffset, aOffset + length, b.array(), bOffset, bOffset + length);
        }
        return a.slice(aPos, length).mismatch(b.slice(bPos, length));
    }
}
