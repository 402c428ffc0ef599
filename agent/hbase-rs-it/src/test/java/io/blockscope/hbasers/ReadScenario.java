package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.hbasers.server.CopyingValueFilter;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.util.Map;

/**
 * The reads every RegionServer test runs (gets, 100-row multi-gets, full, prefix-filtered and copying
 * scans) and what must hold after them: the agent's counters moved exactly as HBase's, the copying
 * filter is the copy site with its own byte count, and no reference is left outstanding.
 */
final class ReadScenario {

    static final String FILTER_SITE = CopyingValueFilter.class.getName() + ".filterCell:";

    private ReadScenario() {}

    /**
     * The reads of a healthy workload, each checked for its row count: 200 gets, five 100-row multi-gets,
     * two full scans (the second from the cache) and a prefix-filtered scan. No copying filter.
     */
    static void healthyReads(Workload workload) throws IOException {
        assertEquals(200, workload.gets(200), "rows found by 200 gets");
        assertEquals(500, workload.multiGets(5), "rows found by five 100-row multi-gets");
        assertEquals(Workload.ROWS, workload.scan(), "rows of a full scan");
        assertEquals(Workload.ROWS, workload.scan(), "rows of a second full scan (from the cache)");
        assertEquals(1000, workload.prefixScan(), "rows of a prefix-filtered scan");
    }

    /** Runs the reads from a quiet point and checks them against that point. */
    static void runAndCheck(RegionServerProcess server, ServerJmx jmx, Workload workload) throws IOException {
        Map<String, Long> hbaseBefore = ServerState.settled(jmx);
        Scrape agentBefore = Scrape.of(server.metricsUri());
        long copiedBefore = jmx.ledger("CopiedValueBytes");
        long siteBefore = siteSum(agentBefore, "blockscope_copy_site_bytes_total", FILTER_SITE);

        assertEquals(100, workload.gets(100), "rows found by 100 gets");
        assertEquals(300, workload.multiGets(3), "rows found by three 100-row multi-gets");
        assertEquals(Workload.ROWS, workload.scan(), "rows of a full scan");
        assertEquals(1000, workload.prefixScan(), "rows of a prefix-filtered scan");
        assertEquals(Workload.ROWS, workload.copyingScan(), "rows through the copying filter");

        Map<String, Long> hbase = ServerState.settled(jmx);
        Scrape agent = Scrape.of(server.metricsUri());
        Agreement.cacheCountersMatch(agent, agentBefore, hbase, hbaseBefore);
        Agreement.occupancyMatches(agent, hbase);
        Agreement.nothingOutstanding(agent);
        long copied = jmx.ledger("CopiedValueBytes") - copiedBefore;
        assertAll(
                () -> assertEquals(
                        copied,
                        siteSum(agent, "blockscope_copy_site_bytes_total", FILTER_SITE) - siteBefore,
                        "copy-site bytes of the filter vs its own count"),
                () -> assertEquals(true, copied > 0, "the filter copied offheap values: " + copied));
    }

    static long siteSum(Scrape scrape, String metric, String sitePrefix) {
        return (long) scrape.sum(metric, l -> l.getOrDefault("site", "").startsWith(sitePrefix));
    }
}
