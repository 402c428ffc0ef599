package io.blockscope.agenttest.bench;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.bootstrap.Copies;
import io.blockscope.agent.bootstrap.Sink;
import java.util.Arrays;

/**
 * The per-site error of copy sampling over one minute of a hot path, measured on the real
 * {@link Copies#copied} (no instrumentation: the sampling decision and weights are all in there).
 * Two sites copy at once: a hot one (4 MiB/s, the hot-copy alert's threshold, in 1000-byte values)
 * and a small one (256 KiB/s in 100-byte values). Each trial is one minute of their copies; the
 * figure is the relative error of each site's estimated bytes, as quantiles over the trials.
 * Compares copy.sample=4096 (1 in N copies, the old default) with 1MiB (by bytes, the new one),
 * trials interleaved.
 *
 * <pre>
 * mvn -q -pl agent -am test-compile -DskipTests
 * java -cp agent/target/test-classes:agent/target/classes io.blockscope.agenttest.bench.CopySamplingError 400
 * </pre>
 */
public final class CopySamplingError {

    private static final long HOT_COPIES = 240L * 1024 * 1024 / 1000;
    private static final long SMALL_COPIES = 15L * 1024 * 1024 / 100;

    private CopySamplingError() {}

    public static void main(String[] args) {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        double[][] errors = new double[4][trials]; // count/hot, count/small, bytes/hot, bytes/small
        long[][] samples = new long[4][trials];
        for (int t = 0; t < trials; t++) {
            for (int mode = 0; mode < 2; mode++) {
                Tally tally = new Tally();
                if (mode == 0) {
                    Bridge.install(tally, 0, 4096, 0);
                } else {
                    Bridge.install(tally, 0, 0, 1 << 20);
                }
                // interleaved in bursts of 100 copies, as two request streams would be
                long hot = 0;
                long small = 0;
                while (hot < HOT_COPIES || small < SMALL_COPIES) {
                    tally.site = 0;
                    for (int i = 0; i < 100 && hot < HOT_COPIES; i++, hot++) {
                        Copies.copied(0, 3, 1000);
                    }
                    tally.site = 1;
                    for (int i = 0; i < 63 && small < SMALL_COPIES; i++, small++) {
                        Copies.copied(0, 3, 100);
                    }
                }
                errors[mode * 2][t] = Math.abs(tally.bytes[0] / (HOT_COPIES * 1000.0) - 1);
                errors[mode * 2 + 1][t] = Math.abs(tally.bytes[1] / (SMALL_COPIES * 100.0) - 1);
                samples[mode * 2][t] = tally.samples[0];
                samples[mode * 2 + 1][t] = tally.samples[1];
            }
        }
        Bridge.install(Sink.NONE, 0, 0, 0);
        String[] names = {
            "copy.sample=4096, hot site  ",
            "copy.sample=4096, small site",
            "copy.sample=1MiB, hot site  ",
            "copy.sample=1MiB, small site"
        };
        System.out.printf(
                "%d one-minute trials; hot site 4 MiB/s in 1000-byte copies, small site 256 KiB/s in"
                        + " 100-byte copies%n",
                trials);
        for (int i = 0; i < 4; i++) {
            Arrays.sort(errors[i]);
            Arrays.sort(samples[i]);
            System.out.printf(
                    "%s  samples/min median %5d   |error| median %5.1f%%  p90 %5.1f%%  max %5.1f%%%n",
                    names[i],
                    samples[i][trials / 2],
                    100 * errors[i][trials / 2],
                    100 * errors[i][trials * 9 / 10],
                    100 * errors[i][trials - 1]);
        }
    }

    private static final class Tally extends Sink {
        int site;
        final long[] bytes = new long[2];
        final long[] samples = new long[2];

        @Override
        public void copy(int probe, int component, long copied, long calls, long estimatedBytes) {
            bytes[site] += estimatedBytes;
            samples[site]++;
        }
    }
}
