package io.blockscope.server.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Rows held as zero-padded words order and match exactly as their bytes do, whichever way they were
 * copied in, and a reused scratch never lets bytes of an earlier, longer row leak into a compare.
 */
class RowScratchTest {

    @Test
    void ordersAndMatchesLikeTheBytes() {
        SplittableRandom random = new SplittableRandom(23);
        RowScratch a = new RowScratch(); // reused on purpose: stale words from earlier rows stay behind
        RowScratch b = new RowScratch();
        RowScratch copy = new RowScratch();
        for (int i = 0; i < 50_000; i++) {
            byte[] x = randomRow(random);
            byte[] y = relatedRow(random, x);
            load(random, a, x);
            load(random, b, y);
            String what = i + ": " + Arrays.toString(x) + " vs " + Arrays.toString(y);
            int expected = Integer.signum(Arrays.compareUnsigned(x, y));
            assertEquals(expected, Integer.signum(a.compareTo(b)), what);
            assertEquals(-expected, Integer.signum(b.compareTo(a)), what);
            assertEquals(expected == 0, a.sameRow(b), what);
            assertEquals(expected == 0, b.sameRow(a), what);
            assertArrayEquals(x, a.toBytes(), what);
            copy.setRow(b);
            assertArrayEquals(y, copy.toBytes(), what);
            assertEquals(0, copy.compareTo(b), what);
        }
    }

    @Test
    void aPrefixSortsFirstEvenWhenTheRestIsZeros() {
        RowScratch shorter = RowScratch.of(new byte[] {1, 2});
        RowScratch longer = RowScratch.of(new byte[] {1, 2, 0});
        RowScratch longest = RowScratch.of(new byte[] {1, 2, 0, 0, 0, 0, 0, 0, 0});
        assertEquals(-1, Integer.signum(shorter.compareTo(longer)));
        assertEquals(-1, Integer.signum(longer.compareTo(longest)));
        assertEquals(1, Integer.signum(longest.compareTo(shorter)));
        assertFalse(shorter.sameRow(longer));
        assertEquals(0, RowScratch.of(new byte[0]).compareTo(RowScratch.of(new byte[0])));
        assertTrue(RowScratch.of(new byte[0]).sameRow(RowScratch.of(new byte[0])));
    }

    private static byte[] randomRow(SplittableRandom random) {
        byte[] row = new byte[random.nextInt(41)];
        random.nextBytes(row);
        return row;
    }

    /** Equal, a prefix or extension of, or one byte off {@code x}: the cases where compares go wrong. */
    private static byte[] relatedRow(SplittableRandom random, byte[] x) {
        switch (random.nextInt(4)) {
            case 0:
                return x.clone();
            case 1: {
                byte[] y = Arrays.copyOf(x, random.nextInt(41)); // shorter, or longer with zeros
                if (y.length > x.length && random.nextBoolean()) {
                    y[y.length - 1] = (byte) random.nextInt(256);
                }
                return y;
            }
            case 2: {
                byte[] y = x.clone();
                if (y.length > 0) {
                    y[random.nextInt(y.length)] = (byte) random.nextInt(256); // incl. bytes >= 0x80
                }
                return y;
            }
            default:
                return randomRow(random);
        }
    }

    /** Copies {@code row} in from an array or a buffer, at a random offset, sometimes right at the end. */
    private static void load(SplittableRandom random, RowScratch scratch, byte[] row) {
        int offset = random.nextInt(12);
        int after = random.nextBoolean() ? 0 : random.nextInt(12); // 0: the row ends its array or buffer
        byte[] padded = new byte[offset + row.length + after];
        random.nextBytes(padded); // garbage around the row must not count
        System.arraycopy(row, 0, padded, offset, row.length);
        switch (random.nextInt(3)) {
            case 0 -> scratch.setRow(padded, offset, row.length);
            case 1 -> scratch.setRow(ByteBuffer.wrap(padded), offset, row.length);
            default -> {
                ByteBuffer direct = ByteBuffer.allocateDirect(padded.length);
                direct.put(0, padded);
                scratch.setRow(direct, offset, row.length);
            }
        }
    }
}
