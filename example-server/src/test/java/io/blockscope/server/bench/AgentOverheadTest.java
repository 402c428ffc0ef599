package io.blockscope.server.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blockscope.server.pe.Bootstrap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fresh-JVM harness's pairing and statistics, and the RPC variant's warm-up options. */
class AgentOverheadTest {

    @Test
    void theWarmupRunReplacesTheDurationInEitherSpelling() {
        assertEquals(
                List.of("--workload", "multiget", "--threads", "2", "--duration", "20s"),
                AgentOverhead.withDuration(
                        List.of("--workload", "multiget", "--duration", "10s", "--threads", "2"), "20s"));
        assertEquals(
                List.of("--workload", "scanRange", "--duration", "20s"),
                AgentOverhead.withDuration(List.of("--duration=10s", "--workload", "scanRange"), "20s"));
        assertEquals(List.of("--duration", "5s"), AgentOverhead.withDuration(List.of(), "5s"));
    }

    /** Each pair's ratio is B over A whichever ran first (the order alternates). */
    @Test
    void pairRatiosAreBOverAInEitherOrder() {
        List<Map<String, Object>> runs = List.of(
                run("A", 100.0),
                run("B", 102.0), // A first
                run("B", 99.0),
                run("A", 110.0)); // B first
        assertArrayEquals(new double[] {1.02, 0.9}, AgentOverhead.pairRatios(runs, "cpuNanosPerOp"), 1e-12);
    }

    @Test
    void aPairOfOneArmOrAnOddRunIsRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> AgentOverhead.pairRatios(List.of(run("A", 1.0), run("A", 2.0)), "cpuNanosPerOp"));
        assertThrows(
                IllegalArgumentException.class,
                () -> AgentOverhead.pairRatios(List.of(run("A", 1.0)), "cpuNanosPerOp"));
    }

    /**
     * Eleven distinct ratios 1.00, 1.01, ..., 1.10: the median is 1.05, and the bootstrap interval's
     * ends are the order statistics the binomial law gives. A resample's median is at or below the
     * k-th smallest value when at least 6 of its 11 draws are, with probability P(Bin(11, k/11) >= 6);
     * the 2.5% and 97.5% points of that law fall on k = 3 and k = 9 (0.051 and 0.993, far from the
     * 0.025 and 0.975 cut-offs, so 10,000 resamples cannot miss them).
     */
    @Test
    void theMedianAndIntervalOfKnownRatiosAreTheBinomialOrderStatistics() {
        double[] ratios = new double[11];
        for (int i = 0; i < ratios.length; i++) {
            ratios[(i * 7) % 11] = 1.0 + i / 100.0; // shuffled: the statistics must not depend on order
        }
        Bootstrap.Interval interval = AgentOverhead.interval(ratios);
        assertEquals(1.05, interval.median(), 1e-12);
        assertEquals(1.0 + (orderStatistic(11, 0.025) - 1) / 100.0, interval.low(), 1e-12);
        assertEquals(1.0 + (orderStatistic(11, 0.975) - 1) / 100.0, interval.high(), 1e-12);
        assertEquals(3, orderStatistic(11, 0.025));
        assertEquals(9, orderStatistic(11, 0.975));
    }

    /** The smallest k whose P(resample median <= k-th value) reaches q (n odd). */
    private static int orderStatistic(int n, double q) {
        for (int k = 1; k <= n; k++) {
            double p = (double) k / n;
            double atLeastHalf = 0;
            for (int j = n / 2 + 1; j <= n; j++) {
                atLeastHalf += binomial(n, j) * Math.pow(p, j) * Math.pow(1 - p, n - j);
            }
            if (atLeastHalf >= q) {
                return k;
            }
        }
        return n;
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }

    /** Half-width 4% from 4 pairs: (4 / 1)^2 times as many pairs, 64, for a half-width of 1%. */
    @Test
    void pairsForOnePercentScaleAsTheSquareOfTheHalfWidth() {
        Bootstrap.Interval fourPercent = new Bootstrap.Interval(1.02, 0.98, 1.06, 0.95, 10_000);
        assertEquals(64, AgentOverhead.pairsForHalfWidth(fourPercent, 4, 0.01));
        Bootstrap.Interval narrow = new Bootstrap.Interval(1.0, 0.999, 1.001, 0.95, 10_000);
        assertEquals(1, AgentOverhead.pairsForHalfWidth(narrow, 20, 0.01));
    }

    private static Map<String, Object> run(String arm, double cpuNanosPerOp) {
        return Map.of("arm", arm, "cpuNanosPerOp", cpuNanosPerOp);
    }

    /** A part's share is B's part less A's, over A's whole CPU per operation, whichever ran first. */
    @Test
    void aPartsShareIsItsChangeOverTheBaselinesTotal() {
        List<Map<String, Object>> runs = List.of(
                parts("A", 10.0, 100.0),
                parts("B", 12.0, 103.0), // A first
                parts("B", 9.0, 98.0),
                parts("A", 10.0, 125.0)); // B first
        assertArrayEquals(new double[] {2.0, -0.8}, AgentOverhead.partShares(runs, "jit"), 1e-12);
    }

    private static Map<String, Object> parts(String arm, double jit, double total) {
        return Map.of("arm", arm, "cpuNanosPerOpByPart", Map.of("jit", jit, "total", total));
    }
}
