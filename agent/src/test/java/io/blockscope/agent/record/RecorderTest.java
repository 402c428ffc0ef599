package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Checkouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RecorderTest {

    private final AtomicInteger holdTimes = new AtomicInteger();

    private Recorder recorder(int trackedPerSecond) {
        SiteResolver sites = new SiteResolver(List.of());
        return new Recorder(
                sites,
                sites,
                4096,
                trackedPerSecond,
                Duration.ofMinutes(1),
                false,
                20,
                1,
                (tier, nanos) -> holdTimes.incrementAndGet(),
                (checkout, reason) -> {});
    }

    @Test
    void sampledCheckoutsBeyondTheRateAreNotTracked() {
        Recorder recorder = recorder(5);
        long start = System.nanoTime();
        int tracked = checkOutAndReturn(recorder, 1_000);
        double seconds = (System.nanoTime() - start) / 1e9;
        // the burst of one second's worth, plus what the steady rate let through meanwhile
        assertTrue(
                tracked >= 5 && tracked <= 5 + (int) Math.ceil(seconds * 5), tracked + " tracked in " + seconds + " s");
    }

    @Test
    void withoutALimitEverySampledCheckoutIsTracked() {
        assertEquals(1_000, checkOutAndReturn(recorder(0), 1_000));
    }

    @Test
    void whileBufferTakesAreSampledDenselyABurstIsTrackedWholeAndNamedWhereItWasTaken() {
        List<String> leakSites = new ArrayList<>();
        SiteResolver sites = new SiteResolver(List.of());
        Recorder recorder = new Recorder(
                sites,
                sites,
                4096,
                5,
                Duration.ofNanos(1),
                false,
                20,
                1,
                (tier, nanos) -> {},
                (checkout, reason) -> leakSites.add(checkout.site()));
        recorder.bufferTiers(new boolean[] {true});
        List<Object> buffers = new ArrayList<>();
        Checkouts.denseBufferSites(true);
        try {
            for (int i = 0; i < 90; i++) {
                Object buffer = new Object();
                buffers.add(buffer);
                recorder.checkout(0, buffer); // a flush's burst, far above leak.rate=5
            }
        } finally {
            Checkouts.denseBufferSites(false);
        }
        recorder.checkLeaks(); // every one held past leak.age
        assertEquals(90, leakSites.size(), "the whole burst tracked");
        // the agent's own frames are skipped: the first frame outside them is the test's caller
        String here = sites.site();
        assertTrue(
                !here.equals("unknown") && leakSites.stream().allMatch(here::equals),
                "named where they were taken, " + here + ": " + leakSites.subList(0, 3));
        assertEquals(90, buffers.size());
    }

    /** Checks out and returns {@code n} blocks, all held at once; the hold times recorded. */
    private int checkOutAndReturn(Recorder recorder, int n) {
        List<Object> blocks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object block = new Object();
            blocks.add(block);
            recorder.checkout(0, block);
        }
        for (Object block : blocks) {
            recorder.returned(0, block);
        }
        return holdTimes.getAndSet(0);
    }
}
