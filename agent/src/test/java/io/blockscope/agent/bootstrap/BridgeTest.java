package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The hot path's counting and sampling, called directly (no instrumentation). */
class BridgeTest {

    private final AtomicInteger checkouts = new AtomicInteger();
    private final AtomicInteger copies = new AtomicInteger();
    private final AtomicInteger returns = new AtomicInteger();
    private final AtomicInteger instances = new AtomicInteger();

    private final Sink sink = new Sink() {
        @Override
        public void checkout(int tier, Object block) {
            checkouts.incrementAndGet();
        }

        @Override
        public void copy(int probe, int component, long bytes) {
            copies.incrementAndGet();
        }

        @Override
        public void returned(int tier, Object block) {
            returns.incrementAndGet();
        }

        @Override
        public void instance(int probe, Object instance) {
            instances.incrementAndGet();
        }

        @Override
        public boolean tracking() {
            return checkouts.get() > 0;
        }
    };

    @AfterEach
    void uninstall() {
        Bridge.install(Sink.NONE, 0, 0);
    }

    @Test
    void countsHitsMissesReturnsAndCopiesOnTheirStripes() {
        Bridge.install(sink, 0, 0);
        long hits = Counters.HITS[3].sum();
        long uncounted = Counters.UNCOUNTED_CHECKOUTS[3].sum();
        long misses = Counters.MISSES[3].sum();
        long returned = Counters.RETURNS[3].sum();
        long copied = Counters.COPY_BYTES[2].sum();
        Bridge.blockGet(3, true, new Object());
        Bridge.blockGet(3, true, null);
        Bridge.blockGet(3, true, null);
        Bridge.blockReturn(3, new Object());
        Bridge.copied(0, 2, 100);
        Bridge.copied(0, 2, 28);
        assertEquals(hits + 1, Counters.HITS[3].sum());
        assertEquals(uncounted, Counters.UNCOUNTED_CHECKOUTS[3].sum());
        assertEquals(misses + 2, Counters.MISSES[3].sum());
        assertEquals(returned + 1, Counters.RETURNS[3].sum());
        assertEquals(copied + 128, Counters.COPY_BYTES[2].sum());
        assertEquals(0, checkouts.get() + copies.get() + returns.get(), "sampling off: nothing reaches the sink");
    }

    @Test
    void anUncountedLookupIsNoGetButItsBlockIsACheckout() {
        Bridge.install(sink, 0, 0);
        long hits = Counters.HITS[4].sum();
        long misses = Counters.MISSES[4].sum();
        long uncounted = Counters.UNCOUNTED_CHECKOUTS[4].sum();
        Bridge.blockGet(4, false, new Object());
        Bridge.blockGet(4, false, null);
        assertEquals(hits, Counters.HITS[4].sum());
        assertEquals(misses, Counters.MISSES[4].sum());
        assertEquals(uncounted + 1, Counters.UNCOUNTED_CHECKOUTS[4].sum());
    }

    @Test
    void samplingRateOneSendsEverythingAndReturnsAreMatchedWhileTracking() {
        Bridge.install(sink, 1, 1);
        for (int i = 0; i < 100; i++) {
            Bridge.blockGet(0, true, new Object());
            Bridge.blockReturn(0, new Object());
            Bridge.copied(1, 0, 10);
        }
        Bridge.blockGet(0, true, null); // a miss is never a checkout
        assertEquals(100, checkouts.get());
        assertEquals(100, copies.get());
        assertEquals(100, returns.get());
    }

    @Test
    void samplingOneInNIsCloseToOneInN() {
        Bridge.install(sink, 64, 256);
        int calls = 1 << 20;
        Object block = new Object();
        for (int i = 0; i < calls; i++) {
            Bridge.blockGet(1, true, block);
            Bridge.copied(1, 1, 1);
        }
        // binomial: mean calls/N, standard deviation about sqrt(calls/N); allow 6 of them
        assertClose(calls / 64, checkouts.get());
        assertClose(calls / 256, copies.get());
    }

    private static void assertClose(int expected, int actual) {
        double tolerance = 6 * Math.sqrt(expected);
        assertTrue(Math.abs(actual - expected) < tolerance, "expected about " + expected + ", got " + actual);
    }

    @Test
    void anInstanceIsReportedOnceUntilAnotherOneIsSeen() {
        Bridge.install(sink, 0, 0);
        Object a = new Object();
        Object b = new Object();
        Bridge.instance(5, a);
        Bridge.instance(5, a);
        Bridge.instance(5, a);
        Bridge.instance(5, b);
        Bridge.instance(5, null);
        assertEquals(2, instances.get());
    }

    @Test
    void adviceErrorsAreCountedPerProbeAndNeverThrow() {
        long before = Counters.ADVICE_ERRORS[7].sum();
        IllegalStateException error = new IllegalStateException("boom");
        Bridge.adviceError(error, 7);
        Bridge.adviceError(error, Counters.MAX_PROBES + 5); // out of range: swallowed
        assertEquals(before + 1, Counters.ADVICE_ERRORS[7].sum());
        assertEquals(error, Bridge.LAST_ERRORS[7]);
    }
}
