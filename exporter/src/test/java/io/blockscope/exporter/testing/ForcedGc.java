package io.blockscope.exporter.testing;

import java.time.Duration;

/**
 * Asks the JVM for collections until a test sees the one it waits for.
 *
 * <p>One {@code System.gc()} is not enough: the VM may run no collection for it. CI on JDK 17 saw
 * an exporter count a new collection after the call, yet none with the {@code System.gc()} cause
 * in 20 seconds. The likeliest reading: a thread in a JNI critical region (zip inflation does
 * that) made the VM skip the call and run a "GCLocker Initiated GC" later in its place. So a test
 * that waits for a forced collection asks again while it waits.
 */
public final class ForcedGc {

    /** What the test waits for; may scrape, so may throw. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private static final long ASK_EVERY_NANOS = Duration.ofSeconds(2).toNanos();

    private ForcedGc() {}

    /**
     * Calls {@code System.gc()} now and again every two seconds until {@code seen} holds, polling
     * it every 100 ms; fails with {@code what} after {@code patience}.
     */
    public static void until(Condition seen, String what, Duration patience) throws Exception {
        long start = System.nanoTime();
        long deadline = start + patience.toNanos();
        long nextAsk = start;
        int asked = 0;
        while (true) {
            if (System.nanoTime() - nextAsk >= 0) {
                System.gc();
                asked++;
                nextAsk = System.nanoTime() + ASK_EVERY_NANOS;
            }
            Thread.sleep(100);
            if (seen.holds()) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(what + ", after " + asked + " System.gc() calls in " + patience);
            }
        }
    }
}
