package io.blockscope.server.region;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The word-at-a-time compares agree with Arrays.compareUnsigned on every length and every position of difference. */
class KeyCompareTest {

    @Test
    void agreesWithArraysCompareUnsigned() {
        SplittableRandom random = new SplittableRandom(17);
        ByteBuffer a = ByteBuffer.allocateDirect(256);
        ByteBuffer b = ByteBuffer.allocate(256);
        for (int i = 0; i < 20_000; i++) {
            int aLength = random.nextInt(40);
            int bLength = random.nextBoolean() ? aLength : random.nextInt(40);
            byte[] x = new byte[aLength];
            byte[] y = new byte[bLength];
            random.nextBytes(x);
            System.arraycopy(x, 0, y, 0, Math.min(aLength, bLength));
            if (bLength > 0 && random.nextBoolean()) {
                y[random.nextInt(bLength)] = (byte) random.nextInt(256); // one difference, anywhere, incl. high bytes
            }
            int aPos = random.nextInt(100);
            int bPos = random.nextInt(100);
            a.put(aPos, x);
            b.put(bPos, y);
            int expected = Integer.signum(Arrays.compareUnsigned(x, y));
            assertEquals(expected, Integer.signum(KeyCompare.compare(a, aPos, aLength, b, bPos, bLength)), i + "");
            int yOffset = random.nextInt(5);
            byte[] padded = new byte[yOffset + bLength];
            System.arraycopy(y, 0, padded, yOffset, bLength);
            assertEquals(
                    expected, Integer.signum(KeyCompare.compare(a, aPos, aLength, padded, yOffset, bLength)), i + "");
        }
    }
}
