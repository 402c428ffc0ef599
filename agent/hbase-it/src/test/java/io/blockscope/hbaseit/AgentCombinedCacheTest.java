package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent on a RegionServer-shaped CombinedBlockCache ({@code CombinedDriver}): index blocks hit
 * in the on-heap l1, data blocks in the offheap l2, data blocks cached from pooled offheap read
 * buffers. Every logical lookup is counted once, under the tier that answered it, equal to HBase's
 * own per-tier statistics; only hits on shared memory are references, and every one comes back.
 */
class AgentCombinedCacheTest {

    /** Longer than the leak age below, so a checkout that never comes back would be reported. */
    private static final long PAST_LEAK_AGE_MILLIS = 3_000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void eachLookupCountsOnceAndOnlySharedMemoryHitsAreReferences(HBaseInstall hbase) throws InterruptedException {
        verify(DriverJvm.of("CombinedDriver").hbase(hbase), hbase.toString(), jvm -> {});
    }

    /**
     * The scenario on {@code driver} (a CombinedDriver with its HBase, JDK and endpoint chosen);
     * {@code more} looks at the JVM once the reads are done.
     */
    static void verify(DriverJvm.Builder driver, String where, Consumer<DriverJvm> more) throws InterruptedException {
        try (DriverJvm jvm =
                driver.agent("leak.sample=1,leak.rate=0,leak.age=2s").start()) {
            Checkpoint read = jvm.await("read");
            Scrape scrape = jvm.scrape();
            more.accept(jvm);
            String at = where + ": ";

            for (String tier : new String[] {"l1", "l2"}) {
                assertEquals(
                        read.number("driver." + tier + ".hits"),
                        read.number("hbase." + tier + ".hits"),
                        at + "premise");
                assertEquals(
                        read.number("hbase." + tier + ".hits"),
                        scrape.value("blockscope_block_cache_gets_total", "result", "hit", "tier", tier),
                        at + tier + " hits");
                assertEquals(
                        read.number("hbase." + tier + ".misses"),
                        scrape.value("blockscope_block_cache_gets_total", "result", "miss", "tier", tier),
                        at + tier + " misses");
            }
            double agentGets = scrape.matching("blockscope_block_cache_gets_total", l -> true).stream()
                    .mapToDouble(Scrape.Sample::value)
                    .sum();
            assertEquals(
                    read.number("hbase.combined.hits") + read.number("hbase.combined.misses"),
                    agentGets,
                    at + "each logical lookup of the combined cache counted once");

            assertEquals(
                    read.number("driver.l2.returns"),
                    scrape.value("blockscope_block_cache_returns_total", "tier", "l2"),
                    at + "l2 returns are the scanner's give-backs of checked-out blocks, nothing else");
            assertEquals(
                    0, scrape.value("blockscope_block_refs_outstanding", "tier", "l2"), at + "l2 references all back");
            assertEquals(
                    0,
                    scrape.value("blockscope_block_refs_outstanding", "tier", "l1"),
                    at + "l1 hits are heap blocks: no reference is taken, none is outstanding");
            AgentReferenceMetricsTest.assertOccupancy(read, scrape, at);

            Thread.sleep(PAST_LEAK_AGE_MILLIS);
            Scrape later = jvm.scrape();
            assertTrue(
                    later.matching("blockscope_block_leaks_total", l -> true).stream()
                            .allMatch(s -> s.value() == 0),
                    at + "nothing leaked:\n" + later.describe("blockscope_block_leaks_total"));
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }
}
