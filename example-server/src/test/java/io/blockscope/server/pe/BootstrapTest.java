package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The statistics of the agent-overhead harness. */
class BootstrapTest {

    @Test
    void medianOfOddAndEvenSamples() {
        assertEquals(3.0, Bootstrap.median(new double[] {5, 1, 3}));
        assertEquals(2.5, Bootstrap.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void aConstantSampleHasAZeroWidthInterval() {
        Bootstrap.Interval i = Bootstrap.medianInterval(new double[] {1.01, 1.01, 1.01, 1.01}, 10_000, 0.95, 1);
        assertEquals(1.01, i.low());
        assertEquals(1.01, i.high());
    }

    /**
     * Normal samples around 1.0 (sd 0.05): the 95% interval of 200 values is narrow and holds 1.0;
     * that of 10 values is wider. Over 200 repetitions the interval holds the true median roughly
     * 95% of the time (the percentile bootstrap of a median is a little conservative or liberal at
     * small n, hence the broad band).
     */
    @Test
    void theIntervalHoldsTheTrueMedianAtAboutItsLevelAndNarrowsWithMoreData() {
        SplittableRandom random = new SplittableRandom(42);
        int covered = 0;
        int repetitions = 200;
        double widthSmall = 0;
        double widthLarge = 0;
        for (int rep = 0; rep < repetitions; rep++) {
            double[] small = normal(random, 10);
            double[] large = normal(random, 200);
            Bootstrap.Interval s = Bootstrap.medianInterval(small, 1_000, 0.95, rep);
            Bootstrap.Interval l = Bootstrap.medianInterval(large, 1_000, 0.95, rep);
            if (l.low() <= 1.0 && 1.0 <= l.high()) {
                covered++;
            }
            assertTrue(l.low() <= l.median() && l.median() <= l.high(), l.toString());
            widthSmall += s.high() - s.low();
            widthLarge += l.high() - l.low();
        }
        assertTrue(covered >= 0.88 * repetitions && covered <= repetitions, "covered " + covered + " of 200");
        assertTrue(widthLarge * 2.5 < widthSmall, "200 values must pin the median far better than 10");
    }

    @Test
    void theSameSeedGivesTheSameInterval() {
        double[] v = {0.98, 1.02, 1.05, 0.97, 1.10, 1.01, 0.99};
        assertEquals(Bootstrap.medianInterval(v, 10_000, 0.95, 7), Bootstrap.medianInterval(v, 10_000, 0.95, 7));
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Bootstrap.median(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> Bootstrap.medianInterval(new double[] {1}, 10, 0.95, 1));
    }

    private static double[] normal(SplittableRandom random, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            // Box-Muller
            double u1 = 1 - random.nextDouble();
            double u2 = random.nextDouble();
            v[i] = 1.0 + 0.05 * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
        }
        return v;
    }
}
