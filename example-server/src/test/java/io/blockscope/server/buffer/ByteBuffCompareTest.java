package io.blockscope.server.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unsigned lexicographic compares between every pair of view kinds and against arrays, checked
 * against {@link Arrays#compareUnsigned} on the same bytes.
 */
class ByteBuffCompareTest {

    static List<TestBuffers.Kind> kinds() {
        return TestBuffers.kinds();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void comparesAgreeWithArraysForEveryPairOfKinds(TestBuffers.Kind left) {
        Random random = new Random(left.name().hashCode());
        for (TestBuffers.Kind right : TestBuffers.kinds()) {
            for (int round = 0; round < 40; round++) {
                byte[][] pair = pair(random);
                byte[] a = pair[0];
                byte[] b = pair[1];
                int aFrom = random.nextInt(3);
                int bFrom = random.nextInt(3);
                int aLength = a.length - aFrom - random.nextInt(2);
                int bLength = b.length - bFrom - random.nextInt(2);
                int expected =
                        Integer.signum(Arrays.compareUnsigned(a, aFrom, aFrom + aLength, b, bFrom, bFrom + bLength));

                ByteBuff va = left.of(a);
                ByteBuff vb = right.of(b);
                String what = left + " vs " + right + ": " + hex(a, aFrom, aLength) + " ? " + hex(b, bFrom, bLength);
                assertEquals(
                        expected, Integer.signum(ByteBuff.compareTo(va, aFrom, aLength, vb, bFrom, bLength)), what);
                assertEquals(
                        -expected, Integer.signum(ByteBuff.compareTo(vb, bFrom, bLength, va, aFrom, aLength)), what);
                assertEquals(
                        expected,
                        Integer.signum(ByteBuff.compareTo(va, aFrom, aLength, b, bFrom, bLength)),
                        what + " (against the array)");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void bytesCompareUnsigned(TestBuffers.Kind kind) {
        ByteBuff high = kind.of(new byte[] {1, (byte) 0x80, 0});
        ByteBuff low = kind.of(new byte[] {1, 0x7F, 0});
        assertTrue(ByteBuff.compareTo(high, 0, 3, low, 0, 3) > 0, "0x80 sorts after 0x7F");
        assertTrue(ByteBuff.compareTo(low, 0, 3, high, 0, 3) < 0);
        assertTrue(
                ByteBuff.compareTo(kind.of(new byte[] {(byte) 0xFF}), 0, 1, new byte[] {0}, 0, 1) > 0,
                "0xFF after 0x00");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPrefixSortsFirstAndEqualRangesAreZero(TestBuffers.Kind kind) {
        byte[] row = "row-000123".getBytes();
        ByteBuff b = kind.of(row);
        assertEquals(0, ByteBuff.compareTo(b, 0, row.length, row.clone(), 0, row.length));
        assertTrue(ByteBuff.compareTo(b, 0, row.length - 1, row, 0, row.length) < 0, "prefix first");
        assertTrue(ByteBuff.compareTo(b, 0, row.length, row, 0, row.length - 1) > 0);
        assertEquals(0, ByteBuff.compareTo(b, 4, 0, new byte[0], 0, 0), "empty ranges are equal");
        assertTrue(ByteBuff.compareTo(b, 4, 0, row, 0, 1) < 0, "empty sorts before anything");
    }

    @Test
    void mismatchExactlyAtA4MegabyteBoundary() {
        byte[] a = new byte[135];
        Arrays.fill(a, (byte) 'k');
        for (int boundary = 1; boundary < 135; boundary += 7) {
            for (int diff : new int[] {boundary - 1, boundary, boundary + 1}) {
                if (diff >= 135) {
                    continue;
                }
                byte[] b = a.clone();
                b[diff] = (byte) 0x90;
                ByteBuff va = TestBuffers.straddling(a, boundary);
                ByteBuff vb = TestBuffers.straddling(b, 135 - boundary);
                assertTrue(
                        ByteBuff.compareTo(va, 0, 135, vb, 0, 135) < 0, "boundary " + boundary + ", diff at " + diff);
                assertTrue(ByteBuff.compareTo(vb, 0, 135, va, 0, 135) > 0);
                assertTrue(ByteBuff.compareTo(vb, 0, 135, a, 0, 135) > 0);
                assertEquals(0, ByteBuff.compareTo(va, 0, 135, TestBuffers.direct(a), 0, 135));
            }
        }
    }

    @Test
    void rangeComparesOnRawNioBuffers() {
        ByteBuffer heap = ByteBuffer.wrap("xxabcdyy".getBytes());
        ByteBuffer direct = ByteBuffer.allocateDirect(8).put(0, "..abce..".getBytes());
        assertTrue(ByteBuffers.compare(heap, 2, 4, direct, 2, 4) < 0);
        assertTrue(ByteBuffers.compare(direct, 2, 4, heap, 2, 4) > 0);
        assertEquals(0, ByteBuffers.compare(direct, 2, 3, heap, 2, 3));
        assertEquals(3, ByteBuffers.mismatch(heap, 2, direct, 2, 4));
        assertEquals(-1, ByteBuffers.mismatch(heap, 2, direct, 2, 3));
        assertTrue(ByteBuffers.equals(heap, 2, 3, direct, 2, 3));
        assertFalse(ByteBuffers.equals(heap, 2, 3, direct, 2, 4));
        assertTrue(ByteBuffers.compare(direct, 2, 4, "abcd".getBytes(), 0, 4) > 0);
        assertTrue(ByteBuffers.compare(heap.asReadOnlyBuffer(), 2, 4, "abce".getBytes(), 0, 4) < 0);
        assertEquals(0, heap.position(), "compares never move positions");
        assertEquals(0, direct.position());
    }

    @Test
    void concurrentComparesOnSharedBuffersStayCorrect() throws Exception {
        // ByteBuffers keeps per-thread views of the last buffers it compared: threads must never see each other's.
        byte[][] keys = new byte[16][];
        ByteBuffer[] direct = new ByteBuffer[keys.length];
        Random random = new Random(9);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new byte[64];
            random.nextBytes(keys[i]);
            keys[i][0] = 1;
            direct[i] = ByteBuffer.allocateDirect(80).put(8, keys[i]);
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    int wrong = 0;
                    for (int n = 0; n < 20_000; n++) {
                        int i = r.nextInt(keys.length);
                        int j = r.nextInt(keys.length);
                        int length = 1 + r.nextInt(64);
                        int expected = Integer.signum(Arrays.compareUnsigned(keys[i], 0, length, keys[j], 0, length));
                        wrong += Integer.signum(ByteBuffers.compare(direct[i], 8, length, direct[j], 8, length))
                                        != expected
                                ? 1
                                : 0;
                        wrong += Integer.signum(ByteBuffers.compare(direct[i], 8, length, keys[j], 0, length))
                                        != expected
                                ? 1
                                : 0;
                    }
                    return wrong;
                }));
            }
            for (java.util.concurrent.Future<Integer> f : results) {
                assertEquals(0, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aComparerFollowsWhicheverBuffersItIsGiven() {
        RangeComparer comparer = new RangeComparer();
        ByteBuffer x = ByteBuffer.allocateDirect(16).put(0, "aaaaXbbbbbbbbbbb".getBytes());
        ByteBuffer y = ByteBuffer.allocateDirect(16).put(0, "aaaaYbbbbbbbbbbb".getBytes());
        byte[] arrayX = "aaaaXbbb".getBytes();
        for (int round = 0; round < 3; round++) {
            assertTrue(comparer.compare(x, 0, 8, y, 0, 8) < 0);
            assertTrue(comparer.compare(y, 0, 8, x, 0, 8) > 0);
            assertEquals(0, comparer.compare(x, 0, 8, arrayX, 0, 8));
            assertTrue(comparer.compare(y, 0, 8, arrayX, 0, 8) > 0);
            assertEquals(0, comparer.compare(x, 5, 4, y, 5, 4), "the tails are equal");
            assertEquals(4, comparer.mismatch(x, 0, y, 0, 16));
            assertTrue(comparer.compare(TestBuffers.straddling("aaaaYbbb".getBytes(), 5), 0, 8, arrayX, 0, 8) > 0);
        }
        assertEquals(0, x.position(), "the caller's buffers never move");
        assertEquals(16, x.limit());
    }

    @Test
    void rangesOutsideABufferAreRejected() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        byte[] array = new byte[8];
        assertThrows(IndexOutOfBoundsException.class, () -> ByteBuffers.compare(direct, 4, 5, array, 0, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> ByteBuffers.compare(direct, -1, 2, array, 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> ByteBuffers.compare(direct, 0, 2, array, 7, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> ByteBuffers.mismatch(direct, 0, direct, 1, 8));
        assertEquals(0, ByteBuffers.compare(direct, 0, 8, array, 0, 8), "the comparer still works afterwards");
    }

    /** Two arrays that share a random-length prefix, then differ (or not) at a random byte. */
    private static byte[][] pair(Random random) {
        int length = 1 + random.nextInt(40);
        byte[] a = new byte[length + 3];
        random.nextBytes(a);
        byte[] b = Arrays.copyOf(a, length + 3 + random.nextInt(3) - 1);
        int mode = random.nextInt(4);
        if (mode > 0 && b.length > 0) {
            int at = random.nextInt(b.length);
            b[at] = (byte) (mode == 1 ? 0x80 : mode == 2 ? 0x7F : random.nextInt());
        }
        return new byte[][] {a, b};
    }

    private static String hex(byte[] b, int from, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < from + length; i++) {
            s.append(String.format("%02x", b[i]));
        }
        return s.toString();
    }
}
