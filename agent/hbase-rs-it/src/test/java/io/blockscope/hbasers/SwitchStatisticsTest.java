package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The switch run's statistics, without a RegionServer: the ratios and the interval around their median. */
class SwitchStatisticsTest {

    @Test
    void eachOnWindowIsComparedWithTheMeanOfItsNeighboursSoALinearDriftCancels() {
        // CPU per op drifts up by 2 a window; the on windows cost 5% more than the drift line there
        double[] windows = new double[9];
        for (int i = 0; i < windows.length; i++) {
            double line = 100 + 2 * i;
            windows[i] = i % 2 == 1 ? line * 1.05 : line;
        }
        double[] ratios = SwitchStatistics.pairRatios(windows);
        assertEquals(4, ratios.length);
        for (double r : ratios) {
            assertEquals(1.05, r, 1e-12);
        }
    }

    @Test
    void windowsMustStartAndEndOff() {
        assertThrows(IllegalArgumentException.class, () -> SwitchStatistics.pairRatios(new double[] {1, 2, 3, 4}));
        assertThrows(IllegalArgumentException.class, () -> SwitchStatistics.pairRatios(new double[] {1}));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, SwitchStatistics.median(new double[] {4, 1, 3, 2}));
        assertEquals(3, SwitchStatistics.median(new double[] {5, 1, 3}));
    }

    @Test
    void theIntervalBracketsTheMedianAndNarrowsWithMorePairs() {
        double[] few = new double[11];
        double[] many = new double[201];
        for (int i = 0; i < few.length; i++) {
            few[i] = 0.95 + 0.01 * i; // 0.95 .. 1.05
        }
        for (int i = 0; i < many.length; i++) {
            many[i] = 0.95 + 0.0005 * i; // the same range, denser
        }
        double[] a = SwitchStatistics.medianInterval(few);
        double[] b = SwitchStatistics.medianInterval(many);
        assertEquals(1.0, a[0], 1e-12);
        assertEquals(1.0, b[0], 1e-12);
        assertTrue(a[1] < 1.0 && a[2] > 1.0, "few: " + a[1] + ".." + a[2]);
        assertTrue(b[1] <= 1.0 && b[2] >= 1.0, "many: " + b[1] + ".." + b[2]);
        assertTrue(b[2] - b[1] < (a[2] - a[1]) / 2, "the interval narrows with the sample");
        assertArrayEquals(a, SwitchStatistics.medianInterval(few), "seeded: the same figures every time");
    }
}
