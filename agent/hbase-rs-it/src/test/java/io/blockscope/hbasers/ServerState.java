package io.blockscope.hbasers;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** HBase's own counters once the server is quiet (JMX caches them for one metrics period). */
final class ServerState {

    /** The cache counters compared with the agent's: every HBase 2 release exports them. */
    static final String[] COUNTERS = {
        "l1CacheHitCount",
        "l1CacheMissCount",
        "l2CacheHitCount",
        "l2CacheMissCount",
        "blockCacheHitCount",
        "blockCacheMissCount"
    };

    /** The BucketCache's occupancy, compared where exported (HBase 2.4.14 and later). */
    static final String[] OCCUPANCY = {"l2CacheSize", "l2CacheFreeSize"};

    private ServerState() {}

    /**
     * HBase's cache counters once two reads 1.5 metrics periods apart agree (the test's client is
     * idle, so only a refresh can change them); fails after 30 s. A read that lacks a counter (the
     * metrics system was just restarted and has not filled its cache yet) counts as a change. The
     * occupancy gauges are in the result when the release exports them.
     */
    static Map<String, Long> settled(ServerJmx jmx) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        Map<String, Long> previous = cacheCounters(jmx);
        while (Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(1500);
            Map<String, Long> now = cacheCounters(jmx);
            if (now.keySet().containsAll(Arrays.asList(COUNTERS)) && now.equals(previous)) {
                return now;
            }
            previous = now;
        }
        throw new AssertionError("HBase's cache metrics (" + ServerJmx.SERVER + ") kept changing or stayed "
                + "incomplete for 30 s: " + previous);
    }

    private static Map<String, Long> cacheCounters(ServerJmx jmx) {
        Map<String, Long> all = jmx.serverMetrics();
        Map<String, Long> picked = new TreeMap<>();
        for (String[] keys : new String[][] {COUNTERS, OCCUPANCY}) {
            for (String key : keys) {
                Long value = all.get(key);
                if (value != null) {
                    picked.put(key, value);
                }
            }
        }
        return picked;
    }
}
