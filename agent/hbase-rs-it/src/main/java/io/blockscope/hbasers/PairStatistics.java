package io.blockscope.hbasers;

import java.util.List;
import java.util.Map;

/**
 * The statistics of fresh-JVM pairs, as example-server's {@code AgentOverhead} computes them: each
 * pair is two adjacent runs, arm A and arm B in either order; a pair gives B/A of a figure, and per
 * thread kind B's share less A's over A's whole CPU per operation. The intervals around their medians
 * come from {@link SwitchStatistics#medianInterval} (the same resampling and seed as that tool's).
 */
final class PairStatistics {

    static final String BY_PART = "cpuNanosPerOpByPart";
    static final String TOTAL = "total";

    private PairStatistics() {}

    /** B/A of {@code key} per pair, from the runs in the order they ran. */
    static double[] pairRatios(List<Map<String, Object>> runs, String key) {
        double[] ratios = new double[pairCount(runs)];
        for (int p = 0; p < ratios.length; p++) {
            ratios[p] = number(b(runs, p), key) / number(a(runs, p), key);
        }
        return ratios;
    }

    /** Per pair, (B's {@code part} - A's {@code part}) over A's total, in per cent. */
    @SuppressWarnings("unchecked")
    static double[] partShares(List<Map<String, Object>> runs, String part) {
        double[] shares = new double[pairCount(runs)];
        for (int p = 0; p < shares.length; p++) {
            Map<String, Number> b = (Map<String, Number>) b(runs, p).get(BY_PART);
            Map<String, Number> a = (Map<String, Number>) a(runs, p).get(BY_PART);
            shares[p] = 100
                    * (b.get(part).doubleValue() - a.get(part).doubleValue())
                    / a.get(TOTAL).doubleValue();
        }
        return shares;
    }

    /**
     * Pairs that would bring the interval {@code [low, high]} of {@code pairs} pairs to a half-width of
     * {@code halfWidth} (0.01 is 1% of a ratio): a median's interval narrows as 1/sqrt(pairs). At least 1.
     */
    static long pairsForHalfWidth(double low, double high, int pairs, double halfWidth) {
        double measured = (high - low) / 2;
        // less a hair, so that a float just above a whole number of pairs does not round up past it
        return Math.max(1, (long) Math.ceil(pairs * Math.pow(measured / halfWidth, 2) - 1e-9));
    }

    private static int pairCount(List<Map<String, Object>> runs) {
        if (runs.size() % 2 != 0) {
            throw new IllegalArgumentException("runs come in pairs, got " + runs.size());
        }
        for (int p = 0; p < runs.size() / 2; p++) {
            if (runs.get(2 * p).get("arm").equals(runs.get(2 * p + 1).get("arm"))) {
                throw new IllegalArgumentException("pair " + p + " holds two runs of arm "
                        + runs.get(2 * p).get("arm"));
            }
        }
        return runs.size() / 2;
    }

    private static Map<String, Object> b(List<Map<String, Object>> runs, int pair) {
        Map<String, Object> x = runs.get(2 * pair);
        return "B".equals(x.get("arm")) ? x : runs.get(2 * pair + 1);
    }

    private static Map<String, Object> a(List<Map<String, Object>> runs, int pair) {
        Map<String, Object> x = runs.get(2 * pair);
        return "B".equals(x.get("arm")) ? runs.get(2 * pair + 1) : x;
    }

    private static double number(Map<String, Object> run, String key) {
        return ((Number) run.get(key)).doubleValue();
    }
}
