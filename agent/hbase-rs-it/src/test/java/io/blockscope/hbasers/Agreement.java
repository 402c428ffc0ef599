package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.util.Arrays;
import java.util.Map;

/**
 * The agent's cache counters against HBase's own, over the same interval (both from zero when the
 * agent started with the server; deltas from a quiet point after a late attach).
 *
 * <p>What HBase 2.6.4 does, as measured on a real RegionServer: every lookup is counted (hits plus
 * misses agree exactly, the repeat lookup after a miss included), and a missed meta block (bloom,
 * index) is counted under {@code l1CacheMissCount} although the lookup went on to the BucketCache,
 * where the agent counts it. So l1 hits, l2 hits and the total of misses agree one for one, and the
 * agent's l2 misses are HBase's l1 plus l2 misses.
 */
final class Agreement {

    private Agreement() {}

    static void cacheCountersMatch(
            Scrape agent, Scrape agentBefore, Map<String, Long> hbase, Map<String, Long> hbaseBefore) {
        long l1Hits = delta(agent, agentBefore, "hit", "l1");
        long l2Hits = delta(agent, agentBefore, "hit", "l2");
        long l1Misses = delta(agent, agentBefore, "miss", "l1");
        long l2Misses = delta(agent, agentBefore, "miss", "l2");
        String context = "agent " + agent.describe("blockscope_block_cache_gets_total") + "\nHBase " + hbase
                + (hbaseBefore == null ? "" : " (before: " + hbaseBefore + ")");
        assertAll(
                () -> assertEquals(hbase(hbase, hbaseBefore, "l1CacheHitCount"), l1Hits, "l1 hits; " + context),
                () -> assertEquals(hbase(hbase, hbaseBefore, "l2CacheHitCount"), l2Hits, "l2 hits; " + context),
                () -> assertEquals(
                        hbase(hbase, hbaseBefore, "blockCacheHitCount"), l1Hits + l2Hits, "all hits; " + context),
                () -> assertEquals(
                        hbase(hbase, hbaseBefore, "blockCacheMissCount"),
                        l1Misses + l2Misses,
                        "all misses; " + context),
                () -> assertEquals(0, l1Misses, "the agent counts no l1 miss on a combined cache; " + context),
                () -> assertEquals(
                        hbase(hbase, hbaseBefore, "l1CacheMissCount") + hbase(hbase, hbaseBefore, "l2CacheMissCount"),
                        l2Misses,
                        "l2 misses; " + context));
    }

    /**
     * {@link #occupancyMatches} when HBase exports its occupancy gauges (they came in 2.4.14), which
     * is read from the server, not assumed from its version. True when it compared them.
     */
    static boolean occupancyMatchesWhereExported(Scrape agent, Map<String, Long> hbase) {
        if (!hbase.keySet().containsAll(Arrays.asList(ServerState.OCCUPANCY))) {
            return false;
        }
        occupancyMatches(agent, hbase);
        return true;
    }

    /** Bucket occupancy is read at scrape time: absolute, whenever the agent attached. */
    static void occupancyMatches(Scrape agent, Map<String, Long> hbase) {
        assertTrue(
                hbase.keySet().containsAll(Arrays.asList(ServerState.OCCUPANCY)),
                "HBase exports l2CacheSize and l2CacheFreeSize: " + hbase);
        assertAll(
                () -> assertEquals(
                        hbase.get("l2CacheSize"),
                        (long) agent.value("blockscope_bucket_cache_used_bytes"),
                        "used bytes vs l2CacheSize " + hbase),
                () -> assertEquals(
                        hbase.get("l2CacheSize") + hbase.get("l2CacheFreeSize"),
                        (long) agent.value("blockscope_bucket_cache_capacity_bytes"),
                        "capacity vs l2CacheSize + l2CacheFreeSize " + hbase),
                () -> assertEquals(
                        hbase.get("l2CacheSize"),
                        (long) agent.sum("blockscope_bucket_bytes", l -> "used".equals(l.get("state"))),
                        "used bytes over the size classes vs l2CacheSize"));
    }

    /** No reference held: every l2 hit given back (outstanding is hits minus returns). */
    static void nothingOutstanding(Scrape agent) {
        assertEquals(0, agent.value("blockscope_block_refs_outstanding", "tier", "l2"), "outstanding l2 references");
        assertEquals(0, agent.value("blockscope_block_refs_outstanding", "tier", "l1"), "outstanding l1 references");
    }

    private static long delta(Scrape now, Scrape before, String result, String tier) {
        double value = now.value("blockscope_block_cache_gets_total", "result", result, "tier", tier);
        if (before != null) {
            value -= before.value("blockscope_block_cache_gets_total", "result", result, "tier", tier);
        }
        return (long) value;
    }

    private static long hbase(Map<String, Long> now, Map<String, Long> before, String key) {
        return now.get(key) - (before == null ? 0 : before.get(key));
    }
}
