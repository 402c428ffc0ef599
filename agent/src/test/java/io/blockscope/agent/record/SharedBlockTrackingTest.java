package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.bootstrap.BridgeIsolation;
import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.bootstrap.Sink;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leak tracking of a block object that several holders share, through the bridge with returns
 * matched against checkouts (the HBase profile's {@code HFileBlock.release()} probe). HBase's
 * BucketCache hands the very same block object to every reader while the block waits in its RAM
 * cache for the writer thread; the reader that loaded it and the writer release that object too.
 */
@ExtendWith(BridgeIsolation.class)
class SharedBlockTrackingTest {

    private static final int TIER = 1;

    private final List<String> leaks = new ArrayList<>();
    private final AtomicInteger holdTimes = new AtomicInteger();
    private final SiteResolver sites = new SiteResolver(List.of());
    private final Recorder recorder = new Recorder(
            sites,
            sites,
            64,
            0,
            Duration.ofMinutes(1),
            false,
            20,
            1,
            (tier, nanos) -> holdTimes.incrementAndGet(),
            (checkout, reason) -> leaks.add(reason.label()));

    /** The bridge's sink: the agent's recorder, with {@code beforeTracking} run first on each checkout. */
    private Sink recorderAfter(Consumer<Object> beforeTracking) {
        return new Sink() {
            @Override
            public void checkout(int tier, Object block) {
                beforeTracking.accept(block);
                recorder.checkout(tier, block);
            }

            @Override
            public void returned(int tier, Object block) {
                recorder.returned(tier, block);
            }
        };
    }

    /**
     * Another holder releases the block between the hit that checks it out and the start of that
     * checkout's tracking (the tracker captures the reader's stack first: microseconds). The table
     * matches that release to the checkout, so the reader's own release later is no checkout's. It
     * must still end the tracking: before this was handled, the block was reported as a {@code gc}
     * leak once collected, on a healthy RegionServer (seen in the HBase demo's healthy act).
     */
    @Test
    void aCheckoutWhoseBlockAnotherHolderReleasedBeforeItsTrackingStartedEndsWithItsOwnRelease()
            throws InterruptedException {
        // the loading reader's release, before the tracking starts
        Bridge.install(recorderAfter(block -> Checkouts.blockReturn(TIER, true, block)), 1, 0);
        Checkouts.matchReturns(64);
        long returns = Counters.RETURNS[TIER].sum();

        WeakReference<Object> collected = checkOutAndRelease();
        for (int i = 0; i < 100 && collected.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(collected.get(), "the block was not collected");
        recorder.checkLeaks();

        assertEquals(List.of(), leaks, "a released checkout is no leak");
        assertEquals(1, holdTimes.get(), "its own release ended the tracking, with a hold time");
        assertEquals(0, Checkouts.trackedCheckouts());
        assertEquals(returns + 1, Counters.RETURNS[TIER].sum(), "one checkout, one return counted");
    }

    private static WeakReference<Object> checkOutAndRelease() {
        Object block = new Object();
        Checkouts.blockHit(TIER, true, true, block);
        Checkouts.blockReturn(TIER, true, block); // the reader's own release
        return new WeakReference<>(block);
    }

    /** The usual case keeps working: a shared block's checkouts each end with a release. */
    @Test
    void twoCheckoutsOfOneBlockEndWithTheirTwoReleases() {
        Bridge.install(recorderAfter(block -> {}), 1, 0);
        Checkouts.matchReturns(64);
        Object block = new Object();
        Checkouts.blockHit(TIER, true, true, block);
        Checkouts.blockHit(TIER, true, true, block);
        assertEquals(2, Checkouts.trackedCheckouts());
        Checkouts.blockReturn(TIER, true, block);
        Checkouts.blockReturn(TIER, true, block);
        Checkouts.blockReturn(TIER, true, block); // the cache's own reference: no checkout left
        assertEquals(2, holdTimes.get());
        assertEquals(0, Checkouts.trackedCheckouts());
        recorder.checkLeaks();
        assertEquals(List.of(), leaks);
    }
}
