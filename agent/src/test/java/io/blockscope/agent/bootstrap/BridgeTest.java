package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The hot path's counting and sampling, called directly (no instrumentation). */
@ExtendWith(BridgeIsolation.class)
class BridgeTest {

    private final AtomicInteger checkouts = new AtomicInteger();
    private final AtomicInteger copies = new AtomicInteger();
    private final AtomicInteger returns = new AtomicInteger();
    private final AtomicInteger instances = new AtomicInteger();

    /** Blocks the sink tracks, as the agent's tracker does: counted in the bridge while tracked. */
    private final Set<Object> tracked = Collections.newSetFromMap(new IdentityHashMap<>());

    private final Sink sink = new Sink() {
        @Override
        public void checkout(int tier, Object block) {
            checkouts.incrementAndGet();
            if (tracked.add(block)) {
                Checkouts.tracked(1);
            }
        }

        @Override
        public void copy(int probe, int component, long bytes, long calls, long estimatedBytes) {
            copies.incrementAndGet();
        }

        @Override
        public void returned(int tier, Object block) {
            returns.incrementAndGet();
            if (tracked.remove(block)) {
                Checkouts.tracked(-1);
            }
        }

        @Override
        public void instance(int probe, Object instance) {
            instances.incrementAndGet();
        }
    };

    /** This test's own checkouts still tracked: taken out of the bridge's count (see BridgeIsolation). */
    @AfterEach
    void untrackLeftovers() {
        Checkouts.tracked(-tracked.size());
        tracked.clear();
    }

    @Test
    void samplingByBytesEstimatesEachSiteUnbiased() {
        long[] estimate = new long[2]; // calls, bytes
        int[] samples = new int[1];
        Sink tally = new Sink() {
            @Override
            public void copy(int probe, int component, long bytes, long calls, long estimatedBytes) {
                samples[0]++;
                estimate[0] += calls;
                estimate[1] += estimatedBytes;
            }
        };
        long every = 1 << 20;
        Bridge.install(tally, 0, 0, every);
        // 1 GiB in 1000-byte copies: about 1024 samples, each standing for 1 MiB
        long copies = (1L << 30) / 1000;
        for (long i = 0; i < copies; i++) {
            Copies.copied(0, 1, 1000);
        }
        double trueBytes = copies * 1000.0;
        // one sample per MiB on average: 1024 expected, sd 32; 6 sd either way
        assertTrue(samples[0] > 1024 - 192 && samples[0] < 1024 + 192, "samples " + samples[0]);
        assertTrue(Math.abs(estimate[1] / trueBytes - 1) < 0.19, "bytes estimate " + estimate[1] + " vs " + trueBytes);
        assertTrue(
                Math.abs(estimate[0] / (double) copies - 1) < 0.19, "calls estimate " + estimate[0] + " vs " + copies);

        // a copy larger than the interval is always sampled and stands for itself
        samples[0] = 0;
        estimate[0] = 0;
        estimate[1] = 0;
        Copies.copied(0, 1, every * 3);
        assertEquals(1, samples[0]);
        assertEquals(1, estimate[0]);
        assertEquals(every * 3, estimate[1]);
        // empty copies are never sampled (nothing copied)
        Copies.copied(0, 1, 0);
        assertEquals(1, samples[0]);
    }

    @Test
    void countsHitsMissesReturnsAndCopiesOnTheirStripes() {
        Bridge.install(sink, 0, 0);
        long hits = Counters.HITS[3].sum();
        long uncounted = Counters.UNCOUNTED_CHECKOUTS[3].sum();
        long misses = Counters.MISSES[3].sum();
        long returned = Counters.RETURNS[3].sum();
        long copied = Counters.COPY_BYTES[2].sum();
        Checkouts.blockGet(3, true, new Object());
        Checkouts.blockGet(3, true, null);
        Checkouts.blockGet(3, true, null);
        Checkouts.blockReturn(3, new Object());
        Copies.copied(0, 2, 100);
        Copies.copied(0, 2, 28);
        assertEquals(hits + 1, Counters.HITS[3].sum());
        assertEquals(uncounted, Counters.UNCOUNTED_CHECKOUTS[3].sum());
        assertEquals(misses + 2, Counters.MISSES[3].sum());
        assertEquals(returned + 1, Counters.RETURNS[3].sum());
        assertEquals(copied + 128, Counters.COPY_BYTES[2].sum());
        assertEquals(0, checkouts.get() + copies.get() + returns.get(), "sampling off: nothing reaches the sink");
    }

    @Test
    void aBufferCopyCountsOnlyInsideACopyDoorUnderTheDoorsComponent() {
        Bridge.install(sink, 0, 0);
        long value = Counters.COPY_BYTES[3].sum();
        long valueCalls = Counters.COPIES[3].sum();
        Copies.copiedInDoor(0, 500);
        assertEquals(value, Counters.COPY_BYTES[3].sum(), "outside every door: not a cell copy");
        Object[] slot = Copies.callSlot();
        slot[Copies.DOOR_COMPONENT] = 3;
        try {
            Copies.copiedInDoor(0, 500);
            Copies.copiedInDoor(0, 24);
        } finally {
            slot[Copies.DOOR_COMPONENT] = null;
        }
        assertEquals(value + 524, Counters.COPY_BYTES[3].sum());
        assertEquals(valueCalls + 2, Counters.COPIES[3].sum());
    }

    @Test
    void anUncountedLookupIsNoGetButItsBlockIsACheckout() {
        Bridge.install(sink, 0, 0);
        long hits = Counters.HITS[4].sum();
        long misses = Counters.MISSES[4].sum();
        long uncounted = Counters.UNCOUNTED_CHECKOUTS[4].sum();
        Checkouts.blockGet(4, false, new Object());
        Checkouts.blockGet(4, false, null);
        assertEquals(hits, Counters.HITS[4].sum());
        assertEquals(misses, Counters.MISSES[4].sum());
        assertEquals(uncounted + 1, Counters.UNCOUNTED_CHECKOUTS[4].sum());
    }

    @Test
    void samplingRateOneSendsEverythingAndReturnsAreMatchedWhileTracking() {
        Bridge.install(sink, 1, 1);
        for (int i = 0; i < 100; i++) {
            Object block = new Object();
            Checkouts.blockGet(0, true, block);
            Checkouts.blockReturn(0, block);
            Copies.copied(1, 0, 10);
        }
        Checkouts.blockGet(0, true, null); // a miss is never a checkout
        assertEquals(100, checkouts.get());
        assertEquals(100, copies.get());
        assertEquals(100, returns.get());
    }

    /**
     * A return goes to the sink (to be matched against tracked checkouts) only while the bridge's
     * count of tracked checkouts is above 0; otherwise it is only counted.
     */
    @Test
    void returnsReachTheSinkOnlyWhileACheckoutIsTracked() {
        Bridge.install(sink, 1, 0);
        long returned = Counters.RETURNS[6].sum();
        Checkouts.blockReturn(6, new Object());
        assertEquals(0, returns.get(), "nothing tracked: the return is not matched");
        Object block = new Object();
        Checkouts.blockGet(6, true, block);
        assertEquals(1, Checkouts.trackedCheckouts());
        Checkouts.blockReturn(6, new Object());
        Checkouts.blockReturn(6, block);
        assertEquals(2, returns.get(), "both returns matched while the checkout was tracked");
        assertEquals(0, Checkouts.trackedCheckouts());
        Checkouts.blockReturn(6, new Object());
        assertEquals(2, returns.get(), "tracking over: returns are only counted again");
        assertEquals(returned + 4, Counters.RETURNS[6].sum());
    }

    @Test
    void aHitThatIsNoCheckoutCountsAsAHitButNeverAsAReference() {
        Bridge.install(sink, 1, 0);
        long hits = Counters.HITS[5].sum();
        long plain = Counters.PLAIN_HITS[5].sum();
        Checkouts.blockHit(5, true, false, new Object());
        Checkouts.blockHit(5, false, false, new Object()); // uncounted and no checkout: nothing at all
        assertEquals(hits, Counters.HITS[5].sum());
        assertEquals(plain + 1, Counters.PLAIN_HITS[5].sum());
        assertEquals(0, checkouts.get(), "not a checkout: never tracked for leaks");
    }

    @Test
    void matchedReturnsCountOnlyCheckedOutBlocksUnderTheirCheckoutTier() {
        Bridge.install(sink, 0, 0);
        Checkouts.matchReturns(64);
        long l1 = Counters.RETURNS[1].sum();
        long l2 = Counters.RETURNS[2].sum();
        Object block = new Object();
        Checkouts.blockHit(1, true, true, block);
        Checkouts.blockReturn(2, true, new Object()); // read from disk, never checked out
        Checkouts.blockReturn(2, true, null);
        Checkouts.blockReturn(2, true, block);
        Checkouts.blockReturn(2, true, block); // a second release of a single checkout
        assertEquals(l1 + 1, Counters.RETURNS[1].sum());
        assertEquals(l2, Counters.RETURNS[2].sum());
        assertEquals(0, Checkouts.checkouts().size());
    }

    @Test
    void plainReturnsStillCountAndForgetTheCheckout() {
        Bridge.install(sink, 0, 0);
        Checkouts.matchReturns(64);
        long returned = Counters.RETURNS[6].sum();
        Object block = new Object();
        Checkouts.blockHit(6, true, true, block);
        Checkouts.blockReturn(6, new Object());
        Checkouts.blockReturn(6, block);
        assertEquals(returned + 2, Counters.RETURNS[6].sum());
        assertEquals(0, Checkouts.checkouts().size(), "a plain return frees the checkout's slot");
    }

    @Test
    void aCheckoutTheTableHasNoRoomForIsAPlainHit() {
        Bridge.install(sink, 0, 0);
        Checkouts.matchReturns(64);
        long hits = Counters.HITS[7].sum();
        long plain = Counters.PLAIN_HITS[7].sum();
        long full = Counters.CHECKOUT_TABLE_FULL.sum();
        List<Object> blocks = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Object block = new Object();
            blocks.add(block);
            Checkouts.blockHit(7, true, true, block);
        }
        long refused = Counters.CHECKOUT_TABLE_FULL.sum() - full;
        assertTrue(refused >= 500 - 64, "refused " + refused);
        assertEquals(plain + refused, Counters.PLAIN_HITS[7].sum());
        assertEquals(hits + 500 - refused, Counters.HITS[7].sum());
        long returned = Counters.RETURNS[7].sum();
        blocks.forEach(b -> Checkouts.blockReturn(7, true, b));
        assertEquals(returned + 500 - refused, Counters.RETURNS[7].sum(), "outstanding comes back to zero");
    }

    @Test
    void samplingOneInNIsCloseToOneInN() {
        Bridge.install(sink, 64, 256);
        int calls = 1 << 20;
        Object block = new Object();
        for (int i = 0; i < calls; i++) {
            Checkouts.blockGet(1, true, block);
            Copies.copied(1, 1, 1);
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
        Instances.instance(5, a);
        Instances.instance(5, a);
        Instances.instance(5, a);
        Instances.instance(5, b);
        Instances.instance(5, null);
        assertEquals(2, instances.get());
    }

    @Test
    void twoInstancesTakingTurnsReachTheSinkOnceEach() {
        Bridge.install(sink, 0, 0);
        Object pooled = new Object();
        Object shared = new Object();
        for (int i = 0; i < 5; i++) {
            Instances.instance(6, pooled);
            Instances.instance(6, shared);
        }
        assertEquals(2, instances.get());
    }

    @Test
    void heapFallbacksAreCountedByReasonAndSampledWithTheirReason() {
        List<long[]> sampled = new ArrayList<>();
        Bridge.install(
                new Sink() {
                    @Override
                    public void heapFallback(int probe, int reason, long bytes, long calls, long estimatedBytes) {
                        sampled.add(new long[] {probe, reason, bytes, calls, estimatedBytes});
                    }
                },
                0,
                1);
        long[] calls = new long[Counters.FALLBACK_REASONS];
        long[] bytes = new long[Counters.FALLBACK_REASONS];
        for (int r = 0; r < calls.length; r++) {
            calls[r] = Counters.HEAP_FALLBACKS[r].sum();
            bytes[r] = Counters.HEAP_FALLBACK_BYTES[r].sum();
        }
        Object allocator = new Object();
        Instances.heapFallback(3, 100, true, 256, allocator); // below the minimal pooled size
        Instances.heapFallback(3, 0, true, 0, allocator); // nothing to pool: below it too
        Instances.heapFallback(3, 1500, true, 256, allocator); // would have been pooled: exhausted
        Instances.heapFallback(3, 256, true, 256, allocator); // exactly the minimum is pooled: exhausted
        Instances.heapFallback(3, 50, false, 256, allocator); // no pool at all
        assertEquals(2, Counters.HEAP_FALLBACKS[Counters.FALLBACK_BELOW_MIN_SIZE].sum() - calls[0]);
        assertEquals(100, Counters.HEAP_FALLBACK_BYTES[Counters.FALLBACK_BELOW_MIN_SIZE].sum() - bytes[0]);
        assertEquals(2, Counters.HEAP_FALLBACKS[Counters.FALLBACK_POOL_EXHAUSTED].sum() - calls[1]);
        assertEquals(1756, Counters.HEAP_FALLBACK_BYTES[Counters.FALLBACK_POOL_EXHAUSTED].sum() - bytes[1]);
        assertEquals(1, Counters.HEAP_FALLBACKS[Counters.FALLBACK_POOL_DISABLED].sum() - calls[2]);
        assertEquals(50, Counters.HEAP_FALLBACK_BYTES[Counters.FALLBACK_POOL_DISABLED].sum() - bytes[2]);
        assertEquals(5, sampled.size(), "copy.sample=1 samples every fallback");
        assertEquals(List.of(3L, (long) Counters.FALLBACK_POOL_EXHAUSTED, 1500L, 1L, 1500L), boxed(sampled.get(2)));
        assertEquals(List.of(3L, (long) Counters.FALLBACK_POOL_DISABLED, 50L, 1L, 50L), boxed(sampled.get(4)));
    }

    private static List<Long> boxed(long[] values) {
        List<Long> out = new ArrayList<>();
        for (long v : values) {
            out.add(v);
        }
        return out;
    }

    /**
     * Tier counts are columns found by arithmetic, not array slots: a tier beyond the table must
     * still fail (the advice's handler counts it) rather than add into another counter's column.
     */
    @Test
    void aTierBeyondTheTableFailsInsteadOfCountingElsewhere() {
        Bridge.install(sink, 0, 0);
        long[] before = new long[Counters.MAX_TIERS];
        for (int t = 0; t < Counters.MAX_TIERS; t++) {
            before[t] = Counters.HITS[t].sum() + Counters.MISSES[t].sum() + Counters.RETURNS[t].sum();
        }
        int beyond = Counters.MAX_TIERS;
        assertThrows(IndexOutOfBoundsException.class, () -> Checkouts.blockGet(beyond, true, new Object()));
        assertThrows(IndexOutOfBoundsException.class, () -> Checkouts.blockGet(beyond, true, null));
        assertThrows(IndexOutOfBoundsException.class, () -> Checkouts.blockReturn(beyond, new Object()));
        assertThrows(IndexOutOfBoundsException.class, () -> Checkouts.blockGet(-1, true, null));
        for (int t = 0; t < Counters.MAX_TIERS; t++) {
            assertEquals(before[t], Counters.HITS[t].sum() + Counters.MISSES[t].sum() + Counters.RETURNS[t].sum());
        }
    }

    @Test
    void adviceErrorsAreCountedPerProbeAndNeverThrow() {
        long before = Counters.ADVICE_ERRORS[7].sum();
        IllegalStateException error = new IllegalStateException("boom");
        AdviceErrors.adviceError(error, 7);
        AdviceErrors.adviceError(error, Counters.MAX_PROBES + 5); // out of range: swallowed
        assertEquals(before + 1, Counters.ADVICE_ERRORS[7].sum());
        assertEquals(error, AdviceErrors.LAST_ERRORS[7]);
    }
}
