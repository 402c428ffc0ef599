package io.blockscope.server.pe;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The median of a sample and its percentile-bootstrap confidence interval: resample the values with
 * replacement, take each resample's median, and read the interval off the sorted medians. Assumes
 * nothing about the distribution, which is what ratios from a shared, noisy machine need.
 */
public final class Bootstrap {

    /** A median with its interval at {@code level} (e.g. 0.95). */
    public record Interval(double median, double low, double high, double level, int resamples) {

        /** A ratio's interval as a change in per cent (1.03 is +3). */
        public Interval asPercentChange() {
            return new Interval((median - 1) * 100, (low - 1) * 100, (high - 1) * 100, level, resamples);
        }
    }

    private Bootstrap() {}

    public static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** Percentile bootstrap of the median; {@code seed} makes it repeatable. */
    public static Interval medianInterval(double[] values, int resamples, double level, long seed) {
        if (resamples < 100 || level <= 0 || level >= 1) {
            throw new IllegalArgumentException("need >= 100 resamples and a level in (0, 1)");
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] medians = new double[resamples];
        double[] resample = new double[values.length];
        for (int r = 0; r < resamples; r++) {
            for (int i = 0; i < values.length; i++) {
                resample[i] = values[random.nextInt(values.length)];
            }
            medians[r] = median(resample);
        }
        Arrays.sort(medians);
        double tail = (1 - level) / 2;
        int lo = (int) Math.floor(tail * (resamples - 1));
        int hi = (int) Math.ceil((1 - tail) * (resamples - 1));
        return new Interval(median(values), medians[lo], medians[hi], level, resamples);
    }
}
