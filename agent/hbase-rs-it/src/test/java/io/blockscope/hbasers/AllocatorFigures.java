package io.blockscope.hbasers;

import io.blockscope.testsupport.Scrape;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The agent's and HBase's allocator figures at one quiet moment. The server is never quite idle: the
 * RegionServer reports to the master every few seconds, and that RPC allocates from HBase's shared
 * heap allocator, which HBase's heap figure includes. So both sides are read, then read again 1.5
 * metrics periods later, until neither moved in between: HBase's JMX value (cached for up to one
 * period) and the agent's scrape then describe the same moment.
 */
final class AllocatorFigures {

    static final String HEAP = "ByteBuffAllocatorHeapAllocationBytes";
    static final String POOL = "ByteBuffAllocatorPoolAllocationBytes";
    private static final String[] KEYS = {
        HEAP, POOL, "ByteBuffAllocatorTotalBufferCount", "ByteBuffAllocatorUsedBufferCount"
    };

    final Map<String, Long> hbase;
    final Scrape agent;

    private AllocatorFigures(Map<String, Long> hbase, Scrape agent) {
        this.hbase = hbase;
        this.agent = agent;
    }

    /** Both sides once neither changed over 1.5 s; fails after 60 s. */
    static AllocatorFigures settled(ServerJmx jmx, RegionServerProcess server) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        Map<String, Long> hbase = read(jmx);
        Scrape agent = Scrape.of(server.metricsUri());
        while (Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(1500);
            Map<String, Long> hbaseNow = read(jmx);
            Scrape agentNow = Scrape.of(server.metricsUri());
            if (hbase.size() == KEYS.length
                    && hbase.equals(hbaseNow)
                    && agentFigures(agent).equals(agentFigures(agentNow))) {
                return new AllocatorFigures(hbase, agent);
            }
            hbase = hbaseNow;
            agent = agentNow;
        }
        throw new AssertionError(
                "the allocator figures kept changing for 60 s: HBase " + hbase + ", agent " + agentFigures(agent));
    }

    private static Map<String, Long> read(ServerJmx jmx) {
        Map<String, Long> all = jmx.serverMetrics();
        Map<String, Long> picked = new TreeMap<>();
        for (String key : KEYS) {
            if (all.containsKey(key)) {
                picked.put(key, all.get(key));
            }
        }
        return picked;
    }

    private static String agentFigures(Scrape scrape) {
        return scrape.describe("blockscope_allocator_heap_fallback_bytes_total") + "\n"
                + scrape.describe("blockscope_allocator_bytes_total") + "\n"
                + scrape.describe("blockscope_allocator_pool_buffers");
    }
}
