package io.blockscope.agent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.HeldBuffers;
import io.blockscope.agent.bootstrap.Sink;
import io.blockscope.agent.profile.OccupancySpec;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.ProfileParser;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.blockscope.agent.record.StuckBuffers;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each place the agent drops data, forced, and seen in blockscope_agent_dropped_total{what}. */
class DroppedDataTest {

    private final DroppedData dropped = new DroppedData();
    private final LeakReport leaks = new LeakReport(2, List.of("l1"), Duration.ofMinutes(1));
    private final Recorder recorder = new Recorder(
            new SiteResolver(List.of()), 16, Duration.ofMinutes(1), false, 2, 1, (tier, nanos) -> {}, leaks);

    @AfterEach
    void resetBridge() {
        Bridge.install(Sink.NONE, 0, 0);
        Checkouts.matchReturns(0);
    }

    /** A cache whose used() accessor fails, as a changed server class would at scrape time. */
    public static final class BrokenCache {
        public long capacity() {
            return 100;
        }

        public long used() {
            throw new IllegalStateException("used() is broken in this test");
        }
    }

    @Test
    void anOccupancyValueWhoseAccessorThrowsIsCountedOncePerScrape() {
        OccupancySpec spec = ((ProbeSpec.Occupancy) ProfileParser.parse(
                                "{\"name\": \"x\", \"probes\": [{\"name\": \"o\", \"kind\": \"occupancy\","
                                        + " \"types\": [\"a.B\"], \"methods\": [\"<init>\"], \"occupancy\":"
                                        + " {\"capacity\": \"this.capacity()\", \"used\": \"this.used()\"}}]}",
                                "t")
                        .probe("o"))
                .occupancy();
        Accessors accessors = new Accessors();
        List<Object> caches = List.of(new BrokenCache(), new BrokenCache());
        for (int scrape = 0; scrape < 3; scrape++) {
            Occupancy read = Occupancy.read(spec, caches, accessors, "o");
            assertEquals(200L, read.capacity, "the values that work are still read");
            assertEquals(null, read.used);
            assertEquals(2, read.failures, "one used() left out per cache");
            dropped.occupancyValuesLeftOut(read.failures);
        }
        assertEquals(6, value(DroppedData.OCCUPANCY_VALUE));
    }

    @Test
    void aHitTheFullCheckoutTableCannotHoldIsCountedAsUntracked() {
        Bridge.install(Sink.NONE, 0, 0);
        Checkouts.matchReturns(64);
        long before = value(DroppedData.CHECKOUT_UNTRACKED);
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Object block = new Object();
            held.add(block);
            Checkouts.blockHit(0, true, true, block);
        }
        long tracked = Checkouts.checkouts().size();
        // 64 slots hold at most 64 distinct blocks: the rest were dropped, and each one counted
        assertEquals(held.size() - tracked, value(DroppedData.CHECKOUT_UNTRACKED) - before);
        assertEquals(true, tracked <= 64, "tracked " + tracked);
    }

    @Test
    void aSampledCheckoutTheLeakTrackerHasNoRoomForIsCounted() {
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Object block = new Object();
            held.add(block);
            recorder.checkout(0, block);
        }
        long untracked = value(DroppedData.LEAK_UNTRACKED);
        // 16 slots for 100 live checkouts
        assertEquals(true, untracked >= 100 - 32, "untracked " + untracked);
        assertEquals(recorder.untrackedCheckouts(), untracked);
    }

    @Test
    void aSampledCheckoutOverTheRateBudgetIsCounted() {
        AtomicInteger holdTimes = new AtomicInteger();
        Recorder limited = new Recorder(
                new SiteResolver(List.of()),
                new SiteResolver(List.of()),
                4096,
                5,
                Duration.ofMinutes(1),
                false,
                2,
                1,
                (tier, nanos) -> holdTimes.incrementAndGet(),
                leaks);
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            Object block = new Object();
            held.add(block);
            limited.checkout(0, block);
        }
        held.forEach(block -> limited.returned(0, block));
        long rateLimited = value(limited, DroppedData.LEAK_RATE_LIMITED);
        // every sampled checkout is either tracked (a hold time on return) or counted: none is lost
        assertEquals(1_000, holdTimes.get() + rateLimited, holdTimes.get() + " tracked, " + rateLimited + " counted");
        assertTrue(rateLimited > 900, "a burst of 1,000 at 5 a second leaves most untracked: " + rateLimited);
        assertEquals(0, value(limited, DroppedData.LEAK_UNTRACKED), "the table had room: not a full-table drop");
        assertEquals(0, value(DroppedData.LEAK_RATE_LIMITED), "an unlimited recorder counts none");
    }

    @Test
    void instancesBeyondTheCapturedLimitAreCounted() {
        List<Object> caches = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            Object cache = new Object();
            caches.add(cache);
            recorder.instance(0, cache);
            recorder.instance(0, cache); // the probe sees a cache on every call it instruments
        }
        assertEquals(64, recorder.instances().live(0).size());
        // the 6 caches beyond the limit, each seen twice; the known 64 seen again are not drops
        assertEquals(12, value(DroppedData.OCCUPANCY_INSTANCE));
    }

    @Test
    void aSiteRetiredIntoOtherIsCounted() {
        // two labels: a and b take them, c becomes hotter than both and retires the colder
        leaks.sites().add("a", 1, 0, 0, 0);
        leaks.sites().add("b", 1, 0, 0, 0);
        leaks.sites().add("b", 1, 0, 0, 0);
        assertEquals(0, value(DroppedData.SITE_RETIRED));
        leaks.sites().add("c", 1, 0, 0, 0);
        leaks.sites().add("c", 1, 0, 0, 0);
        assertEquals(1, value(DroppedData.SITE_RETIRED));
    }

    @Test
    void bufferTakesTheHeldTableRefusedAreCounted() {
        HeldBuffers held = new HeldBuffers(64);
        StuckBuffers stuck = new StuckBuffers(held, Duration.ofSeconds(60));
        Object buffer = new Object();
        for (int i = 0; i < HeldBuffers.PROBES_FOR_TEST + 2; i++) {
            held.taken(buffer, 0L); // one identity hash: one window of slots
        }
        assertEquals(
                2,
                dropped.snapshot(null, leaks, stuck).getDataPoints().stream()
                        .filter(p -> p.getLabels().get("what").equals(DroppedData.BUFFER_UNTRACKED))
                        .mapToLong(p -> (long) p.getValue())
                        .sum());
    }

    @Test
    void everyWhatIsAlwaysExported() {
        CounterSnapshot snapshot = dropped.snapshot(null, leaks, null);
        assertEquals("blockscope_agent_dropped", snapshot.getMetadata().getName());
        assertEquals(
                List.of(
                        "buffer_untracked",
                        "checkout_untracked",
                        "leak_rate_limited",
                        "leak_untracked",
                        "occupancy_instance",
                        "occupancy_value",
                        "site_retired"),
                snapshot.getDataPoints().stream()
                        .map(p -> p.getLabels().get("what"))
                        .sorted()
                        .toList());
    }

    private long value(String what) {
        return value(recorder, what);
    }

    private long value(Recorder from, String what) {
        return (long) dropped.snapshot(from, leaks, null).getDataPoints().stream()
                .filter(p -> what.equals(p.getLabels().get("what")))
                .findFirst()
                .orElseThrow()
                .getValue();
    }
}
