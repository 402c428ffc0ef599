package io.blockscope.server.buffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Builds {@link ByteBuff} views of the same bytes in every shape the read path meets: heap and
 * direct, one buffer or several, arrays with an offset, empty pieces, and a block straddling the
 * boundary between two 4 MB direct buffers.
 */
public final class TestBuffers {

    public static final int BUCKET = 4 * 1024 * 1024;

    private TestBuffers() {}

    /** A named way of laying {@code bytes} out as a view. */
    public record Kind(String name, Function<byte[], ByteBuff> factory) {
        public ByteBuff of(byte[] bytes) {
            return factory.apply(bytes);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static List<Kind> kinds() {
        List<Kind> kinds = new ArrayList<>();
        kinds.add(new Kind("single heap", b -> ByteBuff.wrap(b.clone())));
        kinds.add(new Kind("single heap, array offset 7", TestBuffers::heapWithOffset));
        kinds.add(new Kind("single direct", TestBuffers::direct));
        kinds.add(new Kind(
                "single read-only heap",
                b -> ByteBuff.wrap(ByteBuffer.wrap(b.clone()).asReadOnlyBuffer())));
        kinds.add(new Kind("multi heap, 3 pieces", b -> split(b, false, b.length / 3, 1)));
        kinds.add(new Kind("multi direct, 3 pieces", b -> split(b, true, b.length / 3, 1)));
        kinds.add(new Kind("multi direct, empty piece", b -> split(b, true, b.length / 2, 0)));
        kinds.add(new Kind("multi direct, split every 5", b -> splitEvery(b, 5)));
        kinds.add(new Kind("straddling two 4 MB buckets", b -> straddling(b, Math.max(1, b.length / 2))));
        return kinds;
    }

    public static ByteBuff direct(byte[] bytes) {
        ByteBuffer d = ByteBuffer.allocateDirect(bytes.length);
        d.put(0, bytes);
        return ByteBuff.wrap(d);
    }

    public static ByteBuff heapWithOffset(byte[] bytes) {
        byte[] bigger = new byte[bytes.length + 11];
        System.arraycopy(bytes, 0, bigger, 7, bytes.length);
        return ByteBuff.wrap(ByteBuffer.wrap(bigger, 7, bytes.length));
    }

    /** Three pieces: {@code first} bytes, {@code second} bytes, the rest. */
    public static ByteBuff split(byte[] bytes, boolean direct, int first, int second) {
        first = Math.min(first, bytes.length);
        second = Math.min(second, bytes.length - first);
        return ByteBuff.wrap(
                piece(bytes, 0, first, direct),
                piece(bytes, first, second, direct),
                piece(bytes, first + second, bytes.length - first - second, direct));
    }

    public static ByteBuff splitEvery(byte[] bytes, int size) {
        int n = Math.max(1, (bytes.length + size - 1) / size);
        ByteBuffer[] pieces = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            int from = Math.min(bytes.length, i * size);
            pieces[i] = piece(bytes, from, Math.min(size, bytes.length - from), true);
        }
        return ByteBuff.wrap(pieces);
    }

    /**
     * {@code bytes} laid out as a cached block that starts {@code beforeBoundary} bytes before the end
     * of one 4 MB direct bucket buffer and continues in the next one, as the bucket cache does.
     *
     * <p>The buckets come from a small rotating pool (allocating 8 MB per view made the tests slow):
     * a view stays valid until three more straddling views have been made.
     */
    public static synchronized ByteBuff straddling(byte[] bytes, int beforeBoundary) {
        beforeBoundary = Math.min(beforeBoundary, bytes.length);
        if (bytes.length - beforeBoundary > BUCKET) {
            throw new IllegalArgumentException("a straddling test block must fit two buckets");
        }
        ByteBuffer first = POOL[next++ % POOL.length];
        ByteBuffer second = POOL[next++ % POOL.length];
        first.put(BUCKET - beforeBoundary, bytes, 0, beforeBoundary);
        second.put(0, bytes, beforeBoundary, bytes.length - beforeBoundary);
        return ByteBuff.wrap(
                first.slice(BUCKET - beforeBoundary, beforeBoundary), second.slice(0, bytes.length - beforeBoundary));
    }

    private static final ByteBuffer[] POOL = new ByteBuffer[8];
    private static int next;

    static {
        for (int i = 0; i < POOL.length; i++) {
            POOL[i] = bucket();
        }
    }

    /** One 4 MB direct bucket buffer, filled with junk so that stray reads show. */
    public static ByteBuffer bucket() {
        ByteBuffer b = ByteBuffer.allocateDirect(BUCKET);
        for (int i = 0; i < BUCKET; i += 4096) {
            b.put(i, (byte) 0xEE);
        }
        return b;
    }

    private static ByteBuffer piece(byte[] bytes, int from, int length, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        b.put(0, bytes, from, length);
        return b;
    }
}
