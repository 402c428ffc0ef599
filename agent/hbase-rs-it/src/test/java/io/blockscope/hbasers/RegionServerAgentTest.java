package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.hbasers.server.CopyingValueFilter;
import io.blockscope.hbasers.server.LeakingObserver;
import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real standalone HBase 2.6 RegionServer started with the agent ({@code -javaagent}), scraped by a
 * real Prometheus with the shipped recording and alert rules, through three phases in order: healthy
 * reads, a filter that copies every value, a coprocessor that leaks a scanner. One start-up for all
 * (about 20 s), several assertions per phase.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerAgentTest {

    static final String FILTER_SITE = CopyingValueFilter.class.getName() + ".filterCell:";
    /** Standalone mode runs the master in the RegionServer's JVM; its procedure store copies a few cells. */
    static final String MASTER_STORE = "org.apache.hadoop.hbase.procedure2.";

    /** Exactly this: a method the filter inherits has no line of the filter's own. */
    static final String ROW_KEY_SITE = CopyingValueFilter.class.getName() + ".filterRowKey";

    /** Where HBase builds a response's cell block, one pool buffer after another. */
    static final String RESPONSE_SITE = "org.apache.hadoop.hbase.io.ByteBufferListOutputStream.allocateNewBuffer:";

    static final String LEAK_SITE = LeakingObserver.class.getName() + ".preGetOp:";

    /** Buffers the RegionServer's allocator pool may create (HBase's default here would be 512). */
    static final int POOL_BUFFERS = 4;

    @TempDir
    static Path prometheusDir;

    private WatchedRegionServer rs;
    private Instant healthyStart;

    @BeforeAll
    void start() throws Exception {
        rs = WatchedRegionServer.start(
                RegionServerProcess.builder()
                        .agent("copy.sample=1,leak.sample=1,leak.rate=0,leak.age=3s")
                        // A small allocator pool: one full scan's 500-row responses (about 0.5 MB each, in
                        // 64 KiB buffers) need more buffers than it may create.
                        .site("hbase.server.allocator.max.buffer.count", Integer.toString(POOL_BUFFERS)),
                prometheusDir,
                "healthy");
        System.out.printf(
                "RegionServer with the agent started in %d ms%n",
                rs.server().startup().toMillis());
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(rs);
    }

    @Test
    @Order(1)
    void healthyReadsCountExactlyWhatHBaseCountsAndRaiseNoAlert() throws Exception {
        healthyStart = Instant.now();
        ReadScenario.healthyReads(rs.workload());

        Map<String, Long> hbase = ServerState.settled(rs.jmx());
        Scrape agent = Scrape.of(rs.server().metricsUri());
        Agreement.cacheCountersMatch(agent, null, hbase, null);
        Agreement.occupancyMatches(agent, hbase);
        Agreement.nothingOutstanding(agent);
        assertAll(
                () -> assertTrue(
                        agent.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2") > 0,
                        "the reads hit the BucketCache"),
                () -> assertEquals(
                        agent.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2"),
                        agent.value("blockscope_block_cache_returns_total", "tier", "l2"),
                        "every l2 hit given back"),
                () -> assertEquals(
                        0, agent.sum("blockscope_block_leaks_total", l -> true), "no leak on the healthy path"),
                () -> assertEquals(
                        List.of(),
                        agent.matching(
                                "blockscope_copy_site_calls_total",
                                l -> !l.get("site").startsWith(MASTER_STORE)),
                        "no copy on the healthy read path"),
                () -> assertEquals(1, agent.value("blockscope_agent_probe_enabled", "probe", "block-release")),
                // 2.3+ gives blocks back by release(), so block-return (2.0-2.2) is not reported as
                // skipped; nor is decoded-cell-copy while no table uses data block encoding.
                () -> assertEquals(
                        List.of(),
                        agent.matching(
                                "blockscope_agent_probe_enabled",
                                l -> l.get("probe").equals("block-return")
                                        || l.get("probe").equals("decoded-cell-copy")),
                        "probes whose alternative is enabled"),
                () -> assertEquals(
                        1,
                        agent.value("blockscope_read_path_mode", "mode", "zero-copy"),
                        "an offheap BucketCache is a zero-copy read path"),
                () -> assertEquals(
                        1,
                        agent.matching("blockscope_read_path_mode", l -> true).size(),
                        "one mode"),
                () -> assertEquals(1, agent.value("blockscope_agent_probe_enabled", "probe", "cell-copy")));

        // Prometheus has scraped the healthy server for a while and evaluated every rule on it.
        awaitSeries("blockscope_block_cache_gets_total{result=\"hit\",tier=\"l2\"} > 0");
        RegionServerProcess.sleep(5000);
        List<String> active = new ArrayList<>();
        for (JsonNode alert : rs.prometheus().alerts()) {
            String name = alert.path("labels").path("alertname").asText();
            String line =
                    name + alert.path("labels") + " " + alert.path("state").asText();
            // The GC pause alerts judge the JVM, not the read path: on a loaded 2-core machine a
            // RegionServer's start-up collections can really pause for over 200 ms, and then the
            // alert is right to go pending. Their logic is pinned by the promtool unit tests.
            if (name.startsWith("BlockscopeGcPause")) {
                System.out.println("GC alert on the healthy RegionServer (real pauses, allowed): " + line);
            } else {
                active.add(line);
            }
        }
        assertEquals(List.of(), active, "read-path alerts pending or firing on a healthy RegionServer");
    }

    @Test
    @Order(2)
    void aCopyingFilterIsTheCopySiteWithItsOwnByteCountAndTheHotCopyAlertNamesIt() throws Exception {
        assertEquals(Workload.ROWS, rs.workload().copyingScan(), "rows through the copying filter");
        Scrape agent = Scrape.of(rs.server().metricsUri());
        long copies = rs.jmx().ledger("CopiedValues");
        long bytes = rs.jmx().ledger("CopiedValueBytes");
        // Nearly all: a cell of a block still in the BucketCache's RAM queue may be a heap cell.
        assertTrue(copies > Workload.ROWS * 9L / 10 && copies <= Workload.ROWS, "values the filter copied: " + copies);
        assertEquals(copies * Workload.VALUE_BYTES, bytes, "their bytes, by the filter's own count");
        assertAll(
                () -> assertEquals(
                        bytes, siteSum(agent, "blockscope_copy_site_bytes_total", FILTER_SITE), "site bytes"),
                () -> assertEquals(
                        copies, siteSum(agent, "blockscope_copy_site_calls_total", FILTER_SITE), "site calls"),
                () -> assertEquals(
                        bytes,
                        (long) agent.value("blockscope_copy_to_heap_bytes_total", "component", "value"),
                        "value bytes copied in all"),
                // FilterBase#filterRowKey(Cell), which the filter inherits, copies each row key of the
                // same cells: named after the filter, not after FilterBase.
                () -> assertEquals(
                        copies,
                        (long) agent.value("blockscope_copy_site_calls_total", "site", ROW_KEY_SITE),
                        "row-key copies in the inherited filterRowKey: "
                                + agent.describe("blockscope_copy_site_calls_total")),
                () -> assertEquals(
                        copies * Workload.row(0).length,
                        (long) agent.value("blockscope_copy_site_bytes_total", "site", ROW_KEY_SITE),
                        "their bytes"),
                () -> assertEquals(
                        0,
                        siteSum(agent, "blockscope_copy_site_calls_total", "org.apache.hadoop.hbase.filter.FilterBase"),
                        "no site named after FilterBase"));

        // Copy hard enough for the alert's 4 MiB/s threshold, until the hot-copy expression returns
        // this RegionServer with the filter as its top site.
        String expression = rs.prometheus().alertExpression("BlockscopeHotCopyPath");
        JsonNode hot = null;
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            assertEquals(0, rs.workload().copyingLoadScan(), "the load scan sends nothing back");
            hot = rs.prometheus().query(expression);
            if (hot.size() > 0) {
                break;
            }
        }
        assertEquals(1, hot.size(), "the hot-copy expression on a copying RegionServer: " + hot + "\n" + expression);
        JsonNode labels = hot.get(0).path("metric");
        assertEquals(rs.target(), labels.path("instance").asText(), hot.toString());
        // the alert names its top site in the `site` annotation, from this query (see dashboards/alerts.yml)
        JsonNode top = rs.prometheus()
                .query("topk(1, instance_site:blockscope_copy_site_bytes:rate1m{job='"
                        + labels.path("job").asText() + "',instance='" + rs.target() + "'})");
        assertEquals(1, top.size(), "the site annotation's query: " + top);
        assertTrue(top.get(0).path("metric").path("site").asText().startsWith(FILTER_SITE), "top site " + top);

        // Still exact after thousands more copies.
        Scrape after = Scrape.of(rs.server().metricsUri());
        assertEquals(
                rs.jmx().ledger("CopiedValueBytes"), siteSum(after, "blockscope_copy_site_bytes_total", FILTER_SITE));

        Path capture = Path.of(RegionServerProcess.required("blockscope.capture"));
        SeriesCapture.write(
                rs.prometheus(),
                rs.target(),
                healthyStart,
                Instant.now(),
                capture,
                "Series a real HBase " + System.getProperty("blockscope.hbase.version")
                        + " RegionServer's blockscope agent exported, as Prometheus stored them\n"
                        + "(RegionServerAgentTest: healthy reads, then a filter copying every value)."
                        + "\nInstance renamed to " + SeriesCapture.INSTANCE + "; values otherwise unchanged.");
        assertTrue(Files.readString(capture).contains("blockscope_copy_site_bytes_total"), "capture " + capture);
    }

    @Test
    @Order(3)
    void aCoprocessorThatLeaksAScannerIsNamedAndItsReferenceHeldUntilClosed() throws Exception {
        rs.workload().leakScanner();
        assertEquals(1, rs.jmx().ledger("HeldScanners"), "scanners the coprocessor holds");
        Scrape leaked = awaitScrape(s -> s.sum("blockscope_block_leaks_total", l -> true) > 0);
        List<Scrape.Sample> leaks = leaked.matching("blockscope_block_leaks_total", l -> true);
        assertAll(
                () -> assertEquals(
                        1,
                        leaked.sum(
                                "blockscope_block_leaks_total",
                                l -> l.get("site").startsWith(LEAK_SITE)
                                        && l.get("reason").equals("age")),
                        "one age leak at the coprocessor's method: " + leaks),
                () -> assertEquals(1, leaked.sum("blockscope_block_leaks_total", l -> true), "leaks " + leaks),
                () -> assertTrue(
                        leaked.value("blockscope_block_refs_outstanding", "tier", "l2") > 0,
                        "outstanding while the scanner is open"));

        rs.workload().closeLeakedScanners();
        assertEquals(0, rs.jmx().ledger("HeldScanners"), "scanners the coprocessor holds after the fix");
        Agreement.nothingOutstanding(Scrape.of(rs.server().metricsUri()));
    }

    @Test
    @Order(4)
    void heapAllocationsOfTheRpcAllocatorAreHBasesOwnBytesByReasonAndAnExhaustedPoolNamesItsSite() throws Exception {
        assertEquals(Workload.ROWS, rs.workload().scan(), "rows of a full scan, in responses larger than the pool");

        AllocatorFigures figures = AllocatorFigures.settled(rs.jmx(), rs.server());
        Scrape agent = figures.agent;
        Map<String, Long> hbase = figures.hbase;
        System.out.printf(
                "Heap fallbacks of a RegionServer with a %d-buffer pool:%n%s%n%s%n",
                POOL_BUFFERS,
                agent.describe("blockscope_allocator_heap_fallback_bytes_total"),
                agent.describe("blockscope_allocator_heap_fallback_site_bytes_total"));
        List<Scrape.Sample> exhaustedSites = agent.matching(
                "blockscope_allocator_heap_fallback_site_calls_total", l -> "pool_exhausted".equals(l.get("reason")));
        assertAll(
                () -> assertEquals(
                        hbase.get(AllocatorFigures.HEAP),
                        (long) agent.sum("blockscope_allocator_heap_fallback_bytes_total", l -> true),
                        "heap bytes counted by reason vs HBase's own: "
                                + agent.describe("blockscope_allocator_heap_fallback_bytes_total") + "\n" + hbase),
                () -> assertEquals(
                        hbase.get(AllocatorFigures.HEAP),
                        (long) agent.value("blockscope_allocator_bytes_total", "source", "heap"),
                        "HBase's heap bytes as the agent reads them"),
                () -> assertEquals(
                        hbase.get(AllocatorFigures.POOL),
                        (long) agent.value("blockscope_allocator_bytes_total", "source", "pool"),
                        "HBase's pool bytes as the agent reads them"),
                () -> assertEquals(
                        hbase.get("ByteBuffAllocatorTotalBufferCount"),
                        (long) agent.value("blockscope_allocator_pool_buffers_max"),
                        "most pool buffers"),
                () -> assertEquals(POOL_BUFFERS, hbase.get("ByteBuffAllocatorTotalBufferCount"), "the pool's size"),
                () -> assertEquals(
                        hbase.get("ByteBuffAllocatorUsedBufferCount"),
                        (long) agent.sum("blockscope_allocator_pool_buffers", l -> true),
                        "buffers created, free or in use"),
                () -> assertTrue(
                        agent.value("blockscope_allocator_heap_fallbacks_total", "reason", "pool_exhausted") > 0,
                        "the exhausted pool: " + agent.describe("blockscope_allocator_heap_fallbacks_total")),
                () -> assertEquals(
                        agent.value("blockscope_allocator_heap_fallbacks_total", "reason", "pool_exhausted"),
                        exhaustedSites.stream()
                                .mapToDouble(Scrape.Sample::value)
                                .sum(),
                        "every exhausted fallback has its site at copy.sample=1: " + exhaustedSites),
                () -> assertTrue(
                        exhaustedSites.stream()
                                .anyMatch(x -> x.labels().get("site").startsWith(RESPONSE_SITE)),
                        "the scan responses' buffers are a site of the exhausted pool: "
                                + agent.describe("blockscope_allocator_heap_fallback_site_calls_total")),
                () -> assertEquals(
                        1, agent.value("blockscope_agent_probe_enabled", "probe", "allocator-heap-fallback")));
    }

    /**
     * The dashboards against this scrape, over all four phases (the allocator panels, which the
     * example server cannot fill, included): every query of every panel returns
     * data, except in the panels whose description marks them (or one of their series) example-server
     * only; each of those has a query without data here (so the mark is true), and docs/dashboards.md
     * lists them.
     */
    @Test
    @Order(5)
    void everyDashboardPanelShowsDataOrIsMarkedExampleServerOnly() throws Exception {
        // The leak of phase 3 is in Prometheus (not only in the agent's last scrape) before the range ends.
        awaitSeries("blockscope_block_leaks_total > 0");
        RegionServerProcess.sleep(1500); // the range query's end is whole seconds: past the sample above
        List<DashboardPanels.Result> results = DashboardPanels.run(
                rs.prometheus(),
                Map.of("job", RegionServerPrometheus.JOB, "instance", rs.target()),
                healthyStart,
                Instant.now());
        List<String> empty = new ArrayList<>();
        Set<String> markedWithoutEmptyQuery = DashboardPanels.exampleServerOnly(results);
        for (DashboardPanels.Result r : results) {
            if (!r.data() && !r.exampleServerOnly()) {
                empty.add(r.describe());
            }
            if (!r.data()) {
                markedWithoutEmptyQuery.remove(r.query().panelTitle());
            }
        }
        assertTrue(results.size() > 40, "the dashboards' queries: " + results.size());
        assertEquals(List.of(), empty, "dashboard queries without data from a real RegionServer");
        assertEquals(
                Set.of(),
                markedWithoutEmptyQuery,
                "panels marked '" + DashboardPanels.MARK + "' whose every query has data on a RegionServer");
        Path docs = Path.of(RegionServerProcess.required("blockscope.dashboards"), "..", "docs", "dashboards.md");
        String text = Files.readString(docs);
        for (String title : DashboardPanels.exampleServerOnly(results)) {
            assertTrue(
                    text.contains("*" + title + "*"),
                    docs + " does not list the example-server-only panel *" + title + "*");
        }
        System.out.printf(
                "[dashboards] %d queries returned data from the RegionServer; example-server only: %s%n",
                results.stream().filter(DashboardPanels.Result::data).count(),
                DashboardPanels.exampleServerOnly(results));
    }

    private static long siteSum(Scrape scrape, String metric, String sitePrefix) {
        return (long) scrape.sum(metric, l -> l.getOrDefault("site", "").startsWith(sitePrefix));
    }

    private Scrape awaitScrape(java.util.function.Predicate<Scrape> condition) {
        Instant deadline = Instant.now().plusSeconds(20);
        Scrape scrape = Scrape.of(rs.server().metricsUri());
        while (!condition.test(scrape) && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(250);
            scrape = Scrape.of(rs.server().metricsUri());
        }
        return scrape;
    }

    private void awaitSeries(String expr) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (rs.prometheus().query(expr).size() == 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Prometheus has no result for " + expr + " after 30 s");
            }
            RegionServerProcess.sleep(500);
        }
    }
}
