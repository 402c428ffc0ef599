package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent on a real offheap BucketCache, profile chosen automatically: at every checkpoint of
 * {@code ReferenceDriver} its counters equal the driver's own counts and its bucket occupancy equals
 * the allocator's own statistics, on 2.2 (returnBlock) and 2.6 (reference-counted blocks) alike.
 */
class AgentReferenceMetricsTest {

    /** Every checkout tracked, so hold times are matched for every return too. */
    static final String OPTIONS = "leak.sample=1,leak.rate=0";

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void countsEqualTheDriversAndOccupancyEqualsTheAllocators(HBaseInstall hbase) {
        try (DriverJvm jvm =
                DriverJvm.of("ReferenceDriver").hbase(hbase).agent(OPTIONS).start()) {
            runScenario(jvm, hbase);
        }
    }

    /** The same on the newest JDK the agent supports, with the newest HBase under test. */
    @Test
    void countsHoldOnJdk25() {
        Path java = TestJdks.require(25);
        HBaseInstall newest = HBaseInstall.all().get(HBaseInstall.all().size() - 1);
        try (DriverJvm jvm = DriverJvm.of("ReferenceDriver")
                .hbase(newest)
                .agent(OPTIONS)
                .java(java)
                .start()) {
            runScenario(jvm, newest);
        }
    }

    private static void runScenario(DriverJvm jvm, HBaseInstall hbase) {
        Checkpoint cached = jvm.await("cached");
        assertAgentMatches(cached, jvm.scrape(), hbase);
        jvm.proceed();

        Checkpoint holding = jvm.await("holding");
        Scrape whileHolding = jvm.scrape();
        assertAgentMatches(holding, whileHolding, hbase);
        assertEquals(
                3,
                whileHolding.value("blockscope_block_refs_outstanding", "tier", "l2"),
                "three evicted blocks are still referenced");
        jvm.proceed();

        Checkpoint released = jvm.await("released");
        Scrape end = jvm.scrape();
        assertAgentMatches(released, end, hbase);
        assertEquals(0, end.value("blockscope_block_refs_outstanding", "tier", "l2"), "every reference came back");
        assertEquals(
                released.number("driver.returns"),
                end.value("blockscope_block_hold_seconds_count", "tier", "l2"),
                "with leak.sample=1 every return is matched to its checkout and timed");
        assertProbes(jvm, end, hbase);
        assertEquals(0, jvm.finish(), jvm.log());
    }

    /** Everything the agent says about the cache equals what the driver and the cache say. */
    static void assertAgentMatches(Checkpoint cp, Scrape scrape, HBaseInstall hbase) {
        String at = hbase + " at checkpoint " + cp.name() + ": ";
        assertEquals(
                1,
                scrape.value("blockscope_agent_info", "profile", "hbase2", "version", agentVersion(scrape)),
                at + "profile hbase2 chosen automatically");
        assertEquals(
                cp.number("driver.hits"),
                scrape.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2"),
                at + "l2 hits");
        assertEquals(
                cp.number("driver.misses"),
                scrape.value("blockscope_block_cache_gets_total", "result", "miss", "tier", "l2"),
                at + "l2 misses");
        assertEquals(cp.number("cache.hits"), cp.number("driver.hits"), at + "the cache's own hit count");
        assertEquals(
                cp.number("driver.returns"),
                scrape.value("blockscope_block_cache_returns_total", "tier", "l2"),
                at + "l2 returns");
        assertEquals(
                cp.number("driver.outstanding"),
                scrape.value("blockscope_block_refs_outstanding", "tier", "l2"),
                at + "outstanding");
        assertEquals(
                0, scrape.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l1"), at + "no l1 here");

        assertOccupancy(cp, scrape, at);
    }

    /** Bucket occupancy equals the allocator's own statistics, size class by size class. */
    static void assertOccupancy(Checkpoint cp, Scrape scrape, String at) {
        for (Map.Entry<Long, long[]> sizeClass : cp.slots().entrySet()) {
            String size = Long.toString(sizeClass.getKey());
            long used = sizeClass.getValue()[0];
            long free = sizeClass.getValue()[1];
            assertEquals(
                    used,
                    scrape.value("blockscope_bucket_slots", "size_class", size, "state", "used"),
                    at + "used slots of " + size);
            assertEquals(
                    free,
                    scrape.value("blockscope_bucket_slots", "size_class", size, "state", "free"),
                    at + "free slots of " + size);
            assertEquals(
                    used * sizeClass.getKey(),
                    scrape.value("blockscope_bucket_bytes", "size_class", size, "state", "used"),
                    at + "used bytes of " + size);
            assertEquals(
                    free * sizeClass.getKey(),
                    scrape.value("blockscope_bucket_bytes", "size_class", size, "state", "free"),
                    at + "free bytes of " + size);
        }
        assertEquals(
                cp.slots().size(),
                scrape.matching("blockscope_bucket_slots", l -> "used".equals(l.get("state")))
                        .size(),
                at + "one series per size class, no more");
        assertEquals(
                cp.number("cache.capacity"), scrape.value("blockscope_bucket_cache_capacity_bytes"), at + "capacity");
        assertEquals(cp.number("cache.used"), scrape.value("blockscope_bucket_cache_used_bytes"), at + "used bytes");
        assertTrue(
                scrape.matching("blockscope_bucket_cache_allocation_failures_total", l -> true)
                        .isEmpty(),
                at + "HBase counts no allocation failures, so the profile exports none");
    }

    /** Which probes found their targets depends on the release, and the agent says so. */
    private static void assertProbes(DriverJvm jvm, Scrape scrape, HBaseInstall hbase) {
        String present = hbase.refCounted() ? "block-release" : "block-return";
        String absent = hbase.refCounted() ? "block-return" : "block-release";
        for (String probe : new String[] {"block-get-l2", "bucket-occupancy", present}) {
            assertEquals(
                    1,
                    scrape.value("blockscope_agent_probe_enabled", "probe", probe),
                    hbase + ": " + probe + " enabled");
        }
        assertTrue(
                scrape.matching("blockscope_agent_probe_enabled", l -> absent.equals(l.get("probe")))
                        .isEmpty(),
                hbase + ": " + absent + " has no target but its alternative " + present
                        + " does: not reported as skipped");
        if (!hbase.refCounted()) {
            assertTrue(
                    scrape.matching(
                                    "blockscope_agent_probe_enabled",
                                    l -> "allocator-heap-fallback".equals(l.get("probe")))
                            .isEmpty(),
                    hbase + ": no ByteBuffAllocator before 2.3; block-return marks such a release, so the"
                            + " allocator probe is not reported as skipped");
        }
        assertTrue(
                jvm.agentLine(Pattern.compile("skipped: .*" + absent + " \\(")).isPresent(),
                hbase + ": the startup log names the skipped probe " + absent + ":\n" + jvm.log());
        scrape.matching("blockscope_agent_advice_errors_total", l -> true)
                .forEach(s -> assertEquals(0, s.value(), "advice errors of " + s.labels()));
        // 2.6 and 3.0 load classes ByteBuddy cannot resolve (Log4J2Logger without log4j); no probe
        // wants them, so the agent must say nothing about them
        assertTrue(
                jvm.agentLine(Pattern.compile("could not instrument")).isEmpty(),
                hbase + ": a warning about a class no probe targets:\n" + jvm.log());
    }

    static String agentVersion(Scrape scrape) {
        return scrape.matching("blockscope_agent_info", l -> true).stream()
                .findFirst()
                .map(s -> s.labels().get("version"))
                .orElseThrow(() -> new AssertionError("no blockscope_agent_info series"));
    }
}
