package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HBASE-27170 as a user meets it, on a real RegionServer of the release that has it (2.4.13) and of
 * the release that fixed it (2.4.18), on JDK 11, with the agent at start and its default options: a
 * GZ-compressed family of highly compressible 1 KB rows, flushed, and full scans that do not cache
 * blocks. Each data block is small on disk (read into a heap buffer) and decompressed into a buffer
 * from the RPC server's pool; on 2.4.13 the decompressed block inherits the heap block's no-op
 * release, so its pool buffer is never given back. Past {@code leak.age} the agent must count every
 * one of them as stuck (exactly the pool's buffers in use), name HBase's code that took them once
 * it samples every take, and the shipped stuck-buffer, pool-drain and leak alerts must select the
 * server; on 2.4.18 nothing is reported. A second, uncompressed table on the same server, loaded
 * and scanned first, must get none of the heap fallbacks, leaks or stuck buffers: they count under
 * the compressed table whose scans caused them. Runs when {@code BLOCKSCOPE_TEST_JDKS} has an
 * {@code 11=} entry (.ci/jdks.sh sets it).
 */
// Waits out leak.age (60 s) with its RegionServer idle: overlaps the other leak classes and the rest.
@Execution(ExecutionMode.CONCURRENT)
class RegionServerPoolBufferLeakTest {

    /** Rows of 1 KB: about 300 blocks of 64 KiB, each a pool buffer per read. */
    static final int ROWS = 20_000;
    /**
     * Scans: the harness's 8 handlers give the RegionServer's pool 8 x 31 x 2 = 496 buffers, and
     * each scan takes about 480 (measured on 2.4.13), so the second scan drains it and falls back to
     * the heap.
     */
    static final int SCANS = 2;
    /** The agent's defaults: leak.sample=1024, leak.rate=10, leak.age=60s. */
    static final String AGENT = "";
    /** Where HBase takes the buffer a block is decompressed into (HFileBlock.allocateBuffer and its callers). */
    static final String DECOMPRESSION_SITE = "org.apache.hadoop.hbase.io.hfile.HFileBlock.";

    static final TableName COMPRESSED = TableName.valueOf("hbase27170");
    /** Another table on the same server, uncompressed: its blocks are read into pool buffers and given back. */
    static final TableName PLAIN = TableName.valueOf("hbase27170_plain");

    static final String COMPRESSED_LABEL = "default:hbase27170";
    static final String PLAIN_LABEL = "default:hbase27170_plain";

    /** The by-table families the dashboards' leak and fallback panels read. */
    static final List<String> BY_TABLE_PANEL_FAMILIES = List.of(
            "blockscope_allocator_pool_buffers_stuck_by_table",
            "blockscope_block_leaks_by_table_total",
            "blockscope_allocator_heap_fallback_bytes_by_table_total");

    static final byte[] FAMILY = Bytes.toBytes("f");
    static final byte[] QUALIFIER = Bytes.toBytes("q");

    @TempDir
    Path prometheusDir;

    /** The release with the bug, then the release with the fix (the build passes both). */
    static Stream<Arguments> releases() {
        String[] releases =
                RegionServerProcess.required("blockscope.hbase.hbase27170").split(",");
        return Stream.of(Arguments.of(releases[0], true), Arguments.of(releases[1], false));
    }

    @ParameterizedTest(name = "HBase {0}, leaks pool buffers: {1}")
    @MethodSource("releases")
    void decompressedSmallBlocksLeakPoolBuffersOnlyWhereTheBugIs(String release, boolean leaks) throws Exception {
        Path java = TestJdks.require(11); // skips, saying how to provide JDK 11, when it is not named
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .java(java)
                        .hbaseClassPath(ReleaseClassPath.of(release))
                        .agent(AGENT)
                        .start();
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration())) {
            System.out.printf(
                    "HBase %s on JDK 11 started in %d ms%n",
                    release, server.startup().toMillis());
            Instant loadStart = Instant.now();
            // the other table's reads first, while the pool has buffers: none of what follows is its
            Table plain = loadedTable(connection, PLAIN, Compression.Algorithm.NONE);
            assertEquals(ROWS, countUncached(plain), "rows of the plain table's scan");
            Table table = loadedTable(connection, COMPRESSED, Compression.Algorithm.GZ);
            for (int scan = 0; scan < SCANS; scan++) {
                assertEquals(ROWS, countUncached(table), "rows of full scan " + (scan + 1));
                // a scrape while the pool still has buffers to take
                LeakChecks.scrapeAfterSuspectAge(server);
            }
            System.out.printf(
                    "HBase %s: load, flush and %d scans in %d ms%n",
                    release, SCANS, Duration.between(loadStart, Instant.now()).toMillis());
            Scrape probes = Scrape.of(server.metricsUri());
            assertAll(
                    () -> assertEquals(
                            1,
                            probes.value("blockscope_agent_probe_enabled", "probe", "pool-buffer-take"),
                            "buffer takes instrumented"),
                    () -> assertEquals(
                            1,
                            probes.value("blockscope_agent_probe_enabled", "probe", "pool-buffer-return"),
                            "buffer give-backs instrumented"),
                    () -> assertTrue(
                            probes.value("blockscope_allocator_bytes_total", "source", "pool") > 0,
                            "the reads took buffers from the pool"));
            String target = server.metricsUri().getAuthority();
            Instant scrapedSince = Instant.now();
            try (PrometheusServer prometheus = RegionServerPrometheus.start(prometheusDir, target)) {
                if (leaks) {
                    leakedBuffersAreNamedAndAlerted(
                            release, server, prometheus, Workload.onlyRegion(connection, COMPRESSED));
                    dashboardsNameTheLeakingTable(prometheus, target, scrapedSince);
                } else {
                    nothingIsReported(release, server, prometheus);
                }
            }
        }
    }

    private static void leakedBuffersAreNamedAndAlerted(
            String release, RegionServerProcess server, PrometheusServer prometheus, String region) {
        // the pool drained: every buffer of it stuck once the last scan's are past leak.age
        double stuck = LeakChecks.awaitStuck(
                server, 0.95 * Scrape.of(server.metricsUri()).value("blockscope_allocator_pool_buffers_max"));
        // the sampled takes that leaked are named at leak.age, or sooner when collected
        Scrape agent = LeakChecks.awaitScrape(
                server, s -> s.sum("blockscope_block_leaks_total", LeakChecks.kind("buffer")) > 0);
        List<Scrape.Sample> bufferLeaks = agent.matching("blockscope_block_leaks_total", LeakChecks.kind("buffer"));
        double inUse = agent.value("blockscope_allocator_pool_buffers", "state", "in_use");
        double max = agent.value("blockscope_allocator_pool_buffers_max");
        double exhausted = agent.value("blockscope_allocator_heap_fallbacks_total", "reason", "pool_exhausted");
        System.out.printf(
                "HBase %s: pool buffers in use %.0f of %.0f, pool_exhausted fallbacks %.0f, buffer leaks %s%n",
                release, inUse, max, exhausted, LeakChecks.describe(bufferLeaks));
        double exhaustedOnCompressed = agent.count(
                "blockscope_allocator_heap_fallbacks_by_table_total",
                "reason",
                "pool_exhausted",
                "table",
                COMPRESSED_LABEL);
        System.out.printf(
                "HBase %s: pool_exhausted fallbacks by table:%n%s%nleaks by table:%n%s%nstuck by table:%n%s%n",
                release,
                agent.describe("blockscope_allocator_heap_fallbacks_by_table_total"),
                agent.describe("blockscope_block_leaks_by_table_total"),
                agent.describe("blockscope_allocator_pool_buffers_stuck_by_table"));
        assertAll(
                () -> assertTrue(
                        exhaustedOnCompressed > 0,
                        "the drained pool's fallbacks land on the table whose scans drained it: "
                                + agent.describe("blockscope_allocator_heap_fallbacks_by_table_total")),
                () -> assertEquals(
                        exhausted,
                        agent.sum(
                                "blockscope_allocator_heap_fallbacks_by_table_total",
                                Scrape.label("reason", "pool_exhausted")),
                        "the tables' pool_exhausted fallbacks add up to the total"),
                () -> assertTrue(
                        agent.count(
                                        "blockscope_allocator_heap_fallback_bytes_by_table_total",
                                        "reason",
                                        "pool_exhausted",
                                        "table",
                                        COMPRESSED_LABEL)
                                > 0,
                        "their bytes under the documented family: "
                                + agent.describe("blockscope_allocator_heap_fallback_bytes_by_table_total")),
                () -> assertTrue(
                        exhaustedOnCompressed >= 0.9 * exhausted,
                        "most pool_exhausted fallbacks under the scanned table, not (none): "
                                + agent.describe("blockscope_allocator_heap_fallbacks_by_table_total")),
                () -> assertEquals(
                        0,
                        agent.count(
                                "blockscope_allocator_heap_fallbacks_by_table_total",
                                "reason",
                                "pool_exhausted",
                                "table",
                                PLAIN_LABEL),
                        "no pool_exhausted fallback on the other table (its own small ones are below_min_size): "
                                + agent.describe("blockscope_allocator_heap_fallbacks_by_table_total")),
                () -> assertEquals(
                        agent.sum("blockscope_block_leaks_total", LeakChecks.kind("buffer")),
                        agent.sum(
                                "blockscope_block_leaks_by_table_total",
                                l -> "buffer".equals(l.get("kind")) && COMPRESSED_LABEL.equals(l.get("table"))),
                        "every buffer leak under the compressed table: "
                                + agent.describe("blockscope_block_leaks_by_table_total")),
                () -> assertEquals(
                        agent.value("blockscope_allocator_pool_buffers_stuck"),
                        agent.count("blockscope_allocator_pool_buffers_stuck_by_table", "table", COMPRESSED_LABEL),
                        "every stuck buffer under the compressed table: "
                                + agent.describe("blockscope_allocator_pool_buffers_stuck_by_table")),
                () -> assertTrue(
                        server.agentLines().stream()
                                .anyMatch(l -> l.contains("leak: a buffer taken from pool at " + DECOMPRESSION_SITE)
                                        && l.contains(" for table " + COMPRESSED_LABEL + ", region " + region + " ")),
                        "the first buffer leak logged with its table and region"),
                () -> assertTrue(
                        LeakChecks.endpoint(server, "/metrics", "application/openmetrics-text; version=1.0.0")
                                .lines()
                                .anyMatch(l -> l.startsWith("blockscope_block_leaks_total{")
                                        && l.contains(
                                                "# {region=\"" + region + "\",table=\"" + COMPRESSED_LABEL + "\"}")),
                        "a leak site's series carries its last leak's region and table as an exemplar"),
                () -> assertTrue(
                        LeakChecks.endpoint(server, "/live", "text/html")
                                .contains("<td>table " + COMPRESSED_LABEL + ", region " + region + "</td>"),
                        "the live page's leak rows say for which table and region"));
        assertAll(
                () -> assertTrue(stuck >= 0.95 * max, "the pool's buffers stuck: " + stuck + " of " + max),
                () -> assertTrue(
                        agent.sum("blockscope_block_leaks_total", LeakChecks.kind("buffer")) > 0,
                        "a buffer leak named at the defaults: " + agent.describe("blockscope_block_leaks_total")),
                () -> assertTrue(
                        bufferLeaks.stream()
                                .filter(s -> s.value() > 0)
                                .allMatch(s -> s.labels().get("site").startsWith(DECOMPRESSION_SITE)),
                        "every leaked buffer named by the block decompression that took it: "
                                + LeakChecks.describe(bufferLeaks)),
                () -> assertEquals(
                        0,
                        agent.sum("blockscope_block_leaks_total", LeakChecks.kind("checkout")),
                        "no block checkout leaked: " + agent.describe("blockscope_block_leaks_total")),
                () -> assertTrue(exhausted > 0, "reads fell back to the heap for pool_exhausted: " + exhausted),
                () -> assertTrue(inUse >= 0.95 * max, "the pool drained: " + inUse + " of " + max + " in use"),
                () -> assertTrue(
                        server.agentLines().stream()
                                .anyMatch(l -> l.contains("leak: a buffer taken from pool at " + DECOMPRESSION_SITE)),
                        "the first buffer leak logged with its site; agent lines:\n"
                                + String.join("\n", server.agentLines())));
        JsonNode stuckAlert = LeakChecks.awaitAlertExpression(prometheus, "BlockscopePoolBuffersStuck", true);
        JsonNode drained = LeakChecks.awaitAlertExpression(prometheus, "BlockscopeAllocatorPoolDrained", true);
        JsonNode leaked = LeakChecks.awaitAlertExpression(prometheus, "BlockscopeBlockRefLeak", true);
        assertAll(
                () -> assertEquals(1, stuckAlert.size(), "the stuck-buffer alert selects the server: " + stuckAlert),
                () -> assertEquals(1, drained.size(), "the pool-drain alert selects the server: " + drained),
                () -> assertEquals(
                        List.of("buffer"),
                        LeakChecks.labelValues(leaked, "kind"),
                        "the leak alert selects the server for buffer leaks only: " + leaked));
    }

    /**
     * The dashboards' panels that read the by-table leak, stuck-buffer and heap-fallback families (the
     * server's "Whose leaks and heap fallbacks" row, the fleet's stuck-buffer tables), their queries as
     * rendered and with the variables set to this server: each returns the compressed table.
     */
    private static void dashboardsNameTheLeakingTable(PrometheusServer prometheus, String target, Instant since) {
        List<DashboardPanels.Result> results = DashboardPanels.run(
                prometheus, Map.of("job", RegionServerPrometheus.JOB, "instance", target), since, Instant.now());
        List<String> missing = new ArrayList<>();
        for (String family : BY_TABLE_PANEL_FAMILIES) {
            List<DashboardPanels.Result> reading = results.stream()
                    .filter(r -> r.expr().contains(family + "{"))
                    .toList();
            if (reading.isEmpty()) {
                missing.add("no dashboard query reads " + family);
            }
            for (DashboardPanels.Result r : reading) {
                if (r.hasSeries("table", COMPRESSED_LABEL)) {
                    System.out.printf("[dashboards] %s returns %s%n", r.query().where(), COMPRESSED_LABEL);
                } else {
                    missing.add(r.describe() + " -> " + r.answer());
                }
            }
        }
        assertEquals(List.of(), missing, "by-table panels whose queries do not return " + COMPRESSED_LABEL);
    }

    private static void nothingIsReported(String release, RegionServerProcess server, PrometheusServer prometheus) {
        // longer than leak.age: a buffer still held would be reported by now
        RegionServerProcess.sleep(LeakChecks.LEAK_AGE.plusSeconds(5).toMillis());
        Scrape agent = Scrape.of(server.metricsUri());
        double inUse = agent.value("blockscope_allocator_pool_buffers", "state", "in_use");
        double max = agent.value("blockscope_allocator_pool_buffers_max");
        double exhausted = agent.value("blockscope_allocator_heap_fallbacks_total", "reason", "pool_exhausted");
        System.out.printf(
                "HBase %s: pool buffers in use %.0f of %.0f, pool_exhausted fallbacks %.0f, leaks %s%n",
                release, inUse, max, exhausted, agent.describe("blockscope_block_leaks_total"));
        assertAll(
                () -> assertEquals(
                        0,
                        agent.sum("blockscope_block_leaks_total", l -> true),
                        "no leak: " + agent.describe("blockscope_block_leaks_total")),
                () -> assertEquals(0, exhausted, "no heap fallback for pool_exhausted"),
                () -> assertEquals(
                        0,
                        agent.sum(
                                "blockscope_allocator_heap_fallbacks_by_table_total",
                                Scrape.label("reason", "pool_exhausted")),
                        "no table has a pool_exhausted fallback"),
                () -> assertEquals(
                        0,
                        agent.sum("blockscope_block_leaks_by_table_total"),
                        "no leak by table: " + agent.describe("blockscope_block_leaks_by_table_total")),
                () -> assertEquals(0, agent.value("blockscope_allocator_pool_buffers_stuck"), "no buffer stuck"),
                () -> assertTrue(inUse < 0.95 * max, "the pool did not drain: " + inUse + " of " + max),
                () -> assertEquals(
                        0,
                        LeakChecks.awaitAlertExpression(prometheus, "BlockscopePoolBuffersStuck", false)
                                .size(),
                        "the stuck-buffer alert selects nothing"),
                () -> assertEquals(
                        0,
                        LeakChecks.awaitAlertExpression(prometheus, "BlockscopeAllocatorPoolDrained", false)
                                .size(),
                        "the pool-drain alert selects nothing"),
                () -> assertEquals(
                        0,
                        LeakChecks.awaitAlertExpression(prometheus, "BlockscopeBlockRefLeak", false)
                                .size(),
                        "the leak alert selects nothing"));
    }

    /** Creates table {@code name} in {@code compression}, loads {@link #ROWS} rows of 1 KB that compress well, and flushes it. */
    private static Table loadedTable(Connection connection, TableName name, Compression.Algorithm compression)
            throws IOException {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(name)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                            .setCompressionType(compression)
                            .build())
                    .build());
            Table table = connection.getTable(name);
            byte[] value = new byte[1024];
            Arrays.fill(value, (byte) 'x');
            List<Put> batch = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                batch.add(new Put(Bytes.toBytes(String.format("row-%06d", i))).addColumn(FAMILY, QUALIFIER, value));
                if (batch.size() == 1000) {
                    table.put(batch);
                    batch.clear();
                }
            }
            admin.flush(name);
            return table;
        }
    }

    /** A full scan that leaves the block cache alone, as a batch job's scan does; returns the rows. */
    private static int countUncached(Table table) throws IOException {
        int rows = 0;
        try (ResultScanner scanner =
                table.getScanner(new Scan().setCacheBlocks(false).setCaching(500))) {
            for (Result ignored : scanner) {
                rows++;
            }
        }
        return rows;
    }
}
