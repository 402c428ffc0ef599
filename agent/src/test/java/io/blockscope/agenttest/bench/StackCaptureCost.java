package io.blockscope.agenttest.bench;

import io.blockscope.agent.record.CheckoutTracker;
import io.blockscope.agent.record.SiteResolver;
import java.util.Arrays;
import java.util.List;

/**
 * What a tracked checkout's stack capture costs, against a walk to the site (the least a
 * {@code StackWalker} capture would pay: it must reach the site frame): the real
 * {@link SiteResolver#capture} and {@link SiteResolver#site}, from the bottom of a stack of
 * {@code depth} frames whose {@code skipped} innermost frames are the skipped machinery. Run back to
 * back (warm), and at {@code perSecond} a second with a cache-sized sweep of memory between captures
 * (cold, as a tracked checkout is on a server: the budget allows a few a second). Prints the median
 * and the 90th percentile of each, in microseconds.
 *
 * <pre>
 * mvn -q -pl agent -am test-compile -DskipTests
 * java -cp agent/target/test-classes:agent/target/classes io.blockscope.agenttest.bench.StackCaptureCost 100 20 100 300
 * </pre>
 */
public final class StackCaptureCost {

    private static final SiteResolver RESOLVER = new SiteResolver(List.of(Machinery.class.getName()));
    private static final int SWEEP_BYTES = 8 << 20;

    private static volatile Object sink;

    private StackCaptureCost() {}

    /** The skipped machinery: its frames are the innermost ones, as HBase's reader frames are. */
    static final class Machinery {
        static long down(int frames, boolean capture) {
            if (frames > 0) {
                return down(frames - 1, capture) + 1;
            }
            long start = System.nanoTime();
            sink = capture ? captured() : RESOLVER.site();
            return System.nanoTime() - start;
        }

        private static CheckoutTracker.Origin captured() {
            return RESOLVER.capture();
        }
    }

    static long caller(int frames, int skipped, boolean capture) {
        if (frames > skipped) {
            return caller(frames - 1, skipped, capture) + 1;
        }
        return Machinery.down(skipped, capture);
    }

    public static void main(String[] args) throws InterruptedException {
        int depth = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int skipped = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int perSecond = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int cold = args.length > 3 ? Integer.parseInt(args[3]) : 300;
        byte[] sweep = new byte[SWEEP_BYTES];
        System.out.printf("stack of %d frames, the site %d frames in%n", depth, skipped);
        for (int round = 0; round < 2; round++) { // the second round is the one to read
            for (boolean capture : new boolean[] {true, false}) {
                long[] warm = new long[20_000];
                for (int i = 0; i < warm.length; i++) {
                    warm[i] = caller(depth, skipped, capture);
                }
                long[] cooled = new long[cold];
                for (int i = 0; i < cooled.length; i++) {
                    Arrays.fill(sweep, (byte) i); // evicts the caches a capture reads, as a busy server does
                    cooled[i] = caller(depth, skipped, capture);
                    Thread.sleep(1000 / Math.max(1, perSecond));
                }
                String what = capture ? "capture (the VM's, as a throwable)" : "walk to the site (StackWalker)";
                System.out.printf(
                        "round %d %-36s warm %s, cold at %d/s %s%n",
                        round, what, quantiles(warm), perSecond, quantiles(cooled));
            }
        }
    }

    private static String quantiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(
                "median %.1f us, p90 %.1f us", sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3);
    }
}
