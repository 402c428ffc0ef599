package io.blockscope.hbasers;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The statistics of {@code pe --agent-switch} (example-server's {@code ProbeSwitchRun} and {@code
 * Bootstrap}), for windows measured on a RegionServer: windows alternate off, on, off, ..., off; each
 * on window's CPU per operation is divided by the mean of its two off neighbours (a linear drift of
 * the machine cancels), and the figure is the median of those ratios with a percentile-bootstrap
 * interval. Same resampling and seed as {@code Bootstrap}, so both tools give the same interval for
 * the same ratios.
 */
final class SwitchStatistics {

    static final int RESAMPLES = 10_000;
    static final double LEVEL = 0.95;
    static final long SEED = 20L;

    private SwitchStatistics() {}

    /** On window {@code 2i+1} against the mean of off windows {@code 2i} and {@code 2i+2}. */
    static double[] pairRatios(double[] perWindow) {
        if (perWindow.length < 3 || perWindow.length % 2 == 0) {
            throw new IllegalArgumentException(
                    "windows alternate off, on, ..., off: an odd count of 3 or more, got " + perWindow.length);
        }
        double[] ratios = new double[perWindow.length / 2];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = perWindow[2 * i + 1] / ((perWindow[2 * i] + perWindow[2 * i + 2]) / 2);
        }
        return ratios;
    }

    static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** {median, low, high}: the median and its 95% percentile-bootstrap interval. */
    static double[] medianInterval(double[] values) {
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[values.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < values.length; i++) {
                resample[i] = values[random.nextInt(values.length)];
            }
            medians[r] = median(resample);
        }
        Arrays.sort(medians);
        double tail = (1 - LEVEL) / 2;
        int lo = (int) Math.floor(tail * (RESAMPLES - 1));
        int hi = (int) Math.ceil((1 - tail) * (RESAMPLES - 1));
        return new double[] {median(values), medians[lo], medians[hi]};
    }
}
