package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The other side of the leak classes: a healthy RegionServer of the module's release (2.6.4, which
 * has the fixes of HBASE-27170 and HBASE-28890; its own known leaks need cache-index-on-write or a
 * MOB compaction, neither of which runs here), with the agent at its default options, under five
 * minutes of what an application does: gets, multi-gets, scans, writes, a flush a minute, a major
 * compaction, and two clients that read slowly. Those page through a scan {@value #SLOW_BATCH} rows
 * per call and pause {@link #SLOW_PAUSE} between calls, longer than the agent's suspect age (5 s)
 * and shorter than {@code leak.age}: HBase keeps a scanner's current block between its RPCs, so one
 * holds a BucketCache reference and the other (a batch scan that does not cache blocks) a pool
 * buffer for seconds at a time, as a legitimate reader does. Over the five minutes, at every
 * Prometheus scrape (each second), nothing may be counted stuck, no leak named, and none of the
 * shipped leak alerts may go pending; and the load must have moved the tracked paths by a real
 * amount (pool buffer takes, block checkouts and returns), or the silence proves nothing.
 */
// Five minutes of load on its own RegionServer, mostly waiting on the slow clients: overlaps the leak classes.
@Execution(ExecutionMode.CONCURRENT)
class RegionServerHealthyQuietTest {

    /** The agent's defaults: leak.sample=1024, leak.rate=10, leak.age=60s. */
    static final String AGENT = "";

    static final Duration WINDOW = Duration.ofMinutes(5);
    /** Longer than the agent's suspect age (5 s), well inside leak.age (60 s). */
    static final Duration SLOW_PAUSE = Duration.ofSeconds(7);
    /**
     * Rows per slow call: half of a 64 KiB block of 1 KB rows, so each block stays a scanner's current
     * block across one or two pauses (7-14 s).
     */
    static final int SLOW_BATCH = 32;

    static final Duration FLUSH_EVERY = Duration.ofMinutes(1);
    static final Duration COMPACT_AT = Duration.ofSeconds(150);
    /** Rows overwritten per round of the fast load (with the values they had: reads still check them). */
    static final int WRITES_PER_ROUND = 200;
    /** A table only the uncached slow scan reads: every block it touches comes from disk, into a pool buffer. */
    static final TableName BATCH = TableName.valueOf("batch");

    static final int BATCH_ROWS = 2_000;
    /** The shipped alerts that would report a leak or something stuck. */
    static final List<String> LEAK_ALERTS = List.of(
            "BlockscopePoolBuffersStuck",
            "BlockscopeBlockRefsStuck",
            "BlockscopeBlockRefLeak",
            "BlockscopeAllocatorPoolDrained",
            "BlockscopeBlockRefsGrowing");
    /** What the agent logs once a scrape finds pool buffers out longer than the suspect age. */
    static final String DENSE_SAMPLING = "every new take's site is captured";

    @TempDir
    Path prometheusDir;

    @Test
    void aHealthyRegionServerStaysQuietForFiveMinutesAtTheDefaults() throws Exception {
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .agent(AGENT)
                        // off by default in these tests; the major compaction needs it on
                        .site("hbase.regionserver.compaction.enabled", "true")
                        .start();
                PrometheusServer prometheus = RegionServerPrometheus.start(
                        prometheusDir, server.metricsUri().getAuthority())) {
            // the window starts with the tables' creation and loading: writes and flushes of the mix
            Scrape before = Scrape.of(server.metricsUri());
            Instant start = Instant.now();
            Instant end = start.plus(WINDOW);
            System.out.printf("HBase started in %d ms%n", server.startup().toMillis());
            try (Workload reads = Workload.create(server, "healthy");
                    Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                    Admin admin = connection.getAdmin();
                    Table table = connection.getTable(TableName.valueOf("healthy"));
                    Table batch = batchTable(connection, admin)) {
                runMix(server, prometheus, reads, admin, table, batch, before, start, end);
            }
        }
    }

    /** The five minutes of load, then what they must and must not have shown. */
    private static void runMix(
            RegionServerProcess server,
            PrometheusServer prometheus,
            Workload reads,
            Admin admin,
            Table table,
            Table batch,
            Scrape before,
            Instant start,
            Instant end)
            throws Exception {
        ExecutorService slow = Executors.newFixedThreadPool(2);
        Future<Integer> slowCached = slow.submit(() -> slowScan(table, true, end));
        Future<Integer> slowUncached = slow.submit(() -> slowScan(batch, false, end));
        Load load = new Load();
        Instant nextFlush = start.plus(FLUSH_EVERY);
        Instant nextReport = start;
        while (Instant.now().isBefore(end)) {
            load.reads += reads.gets(50) + reads.multiGets(2) + reads.scan() + reads.prefixScan();
            overwrite(table, load.rounds);
            if (Instant.now().isAfter(nextFlush)) {
                admin.flush(table.getName());
                load.flushes++;
                nextFlush = nextFlush.plus(FLUSH_EVERY);
            }
            if (!load.compacted && Instant.now().isAfter(start.plus(COMPACT_AT))) {
                admin.majorCompact(table.getName());
                Compactions.await(admin, table.getName());
                load.compacted = true;
            }
            load.rounds++;
            if (Instant.now().isAfter(nextReport)) {
                report(server, start);
                nextReport = nextReport.plusSeconds(30);
            }
            RegionServerProcess.sleep(200);
        }
        int slowRowsCached = slowCached.get();
        int slowRowsUncached = slowUncached.get();
        slow.shutdown();
        // the last second's scrape and rule evaluation
        RegionServerProcess.sleep(3_000);
        Scrape after = Scrape.of(server.metricsUri());
        long window = Duration.between(start, Instant.now()).toSeconds() + 2;
        Figures figures = new Figures(before, after);
        double maxStuck = overWindow(prometheus, "max_over_time", "blockscope_allocator_pool_buffers_stuck", window);
        double maxStuckRefs = overWindow(prometheus, "max_over_time", "blockscope_block_refs_stuck", window);
        double maxInUse =
                overWindow(prometheus, "max_over_time", "blockscope_allocator_pool_buffers{state=\"in_use\"}", window);
        double maxOutstanding = overWindow(prometheus, "max_over_time", "blockscope_block_refs_outstanding", window);
        double scrapes = overWindow(prometheus, "count_over_time", "blockscope_allocator_pool_buffers_stuck", window);
        JsonNode alerts =
                prometheus.query("ALERTS{alertname=~\"" + String.join("|", LEAK_ALERTS) + "\"}[" + window + "s]");
        boolean dense = server.agentLines().stream().anyMatch(l -> l.contains(DENSE_SAMPLING));
        System.out.printf(
                "HBase %s healthy for %d s: %d rounds, %d rows read fast, %d slowly (cached %d, uncached %d),"
                        + " %d flushes, compacted %s; pool takes %.0f (%.0f buffers of %.0f B), checkouts %.0f,"
                        + " returns %.0f; over %.0f scrapes max stuck buffers %.0f, max stuck refs %.0f,"
                        + " max pool buffers in use %.0f of %.0f, max outstanding refs %.0f; dense sampling"
                        + " switched on: %s; leaks %s; alerts %s%n",
                System.getProperty("blockscope.hbase.version"),
                window,
                load.rounds,
                load.reads,
                slowRowsCached + slowRowsUncached,
                slowRowsCached,
                slowRowsUncached,
                load.flushes,
                load.compacted,
                figures.takes(),
                figures.takes(),
                figures.bufferBytes(),
                figures.checkouts(),
                figures.returns(),
                scrapes,
                maxStuck,
                maxStuckRefs,
                maxInUse,
                after.value("blockscope_allocator_pool_buffers_max"),
                maxOutstanding,
                dense,
                after.describe("blockscope_block_leaks_total"),
                alerts);
        assertAll(
                () -> assertTrue(
                        scrapes >= 0.9 * WINDOW.toSeconds(),
                        "Prometheus scraped the agent every second of the window: " + scrapes),
                () -> assertEquals(0, maxStuck, "no pool buffer counted stuck at any scrape"),
                () -> assertEquals(0, maxStuckRefs, "no block reference counted stuck at any scrape"),
                () -> assertEquals(
                        0,
                        after.sum("blockscope_block_leaks_total", l -> true),
                        "no leak named: " + after.describe("blockscope_block_leaks_total")),
                () -> assertEquals(0, alerts.size(), "no leak alert pending or firing: " + alerts),
                () -> assertEquals(
                        0,
                        after.count("blockscope_agent_dropped_total", "what", "buffer_untracked"),
                        "every take held with its time (else stuck could undercount)"),
                () -> assertEquals(
                        0,
                        after.count("blockscope_allocator_heap_fallbacks_total", "reason", "pool_exhausted"),
                        "the pool never ran out"),
                () -> assertTrue(dense, "the slow batch scan held a pool buffer past the suspect age"),
                () -> assertTrue(figures.takes() >= 10_000, "pool buffers taken: " + figures.takes()),
                () -> assertTrue(figures.checkouts() >= 10_000, "blocks checked out: " + figures.checkouts()),
                () -> assertTrue(
                        figures.returns() >= figures.checkouts() - maxOutstanding,
                        "checkouts returned: " + figures.returns() + " of " + figures.checkouts()),
                () -> assertTrue(load.flushes >= 4, "flushes: " + load.flushes),
                () -> assertTrue(load.compacted, "a major compaction ran"),
                () -> assertTrue(
                        slowRowsCached >= 10 * SLOW_BATCH && slowRowsUncached >= 10 * SLOW_BATCH,
                        "the slow clients paused more than leak.age in all: " + slowRowsCached + ", "
                                + slowRowsUncached));
    }

    /** What the fast load did. */
    private static final class Load {
        int rounds;
        long reads;
        int flushes;
        boolean compacted;
    }

    /** The tracked paths' traffic between two scrapes. */
    private record Figures(Scrape before, Scrape after) {

        double bufferBytes() {
            return after.value("blockscope_allocator_pool_capacity_bytes")
                    / after.value("blockscope_allocator_pool_buffers_max");
        }

        /** HBase's pool counts the bytes of each buffer it hands out: a buffer's size apiece. */
        double takes() {
            return delta("blockscope_allocator_bytes_total", "source", "pool") / bufferBytes();
        }

        double checkouts() {
            return delta("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit");
        }

        double returns() {
            return delta("blockscope_block_cache_returns_total", "tier", "l2");
        }

        private double delta(String name, String... labels) {
            return after.count(name, labels) - before.count(name, labels);
        }
    }

    /**
     * A scan read {@value #SLOW_BATCH} rows per call with {@link #SLOW_PAUSE} between calls until
     * {@code end}, starting over at the table's end; returns the rows read.
     */
    private static int slowScan(Table table, boolean cacheBlocks, Instant end) throws IOException {
        int rows = 0;
        while (Instant.now().isBefore(end)) {
            try (ResultScanner scanner =
                    table.getScanner(new Scan().setCaching(SLOW_BATCH).setCacheBlocks(cacheBlocks))) {
                Result[] batch = scanner.next(SLOW_BATCH);
                while (batch.length > 0 && Instant.now().isBefore(end)) {
                    for (Result result : batch) {
                        assertEquals(Workload.VALUE_BYTES, result.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
                    }
                    rows += batch.length;
                    RegionServerProcess.sleep(SLOW_PAUSE.toMillis());
                    batch = scanner.next(SLOW_BATCH);
                }
            }
        }
        return rows;
    }

    /** Rewrites {@link #WRITES_PER_ROUND} rows of the table with the values they have. */
    private static void overwrite(Table table, int round) throws IOException {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < WRITES_PER_ROUND; i++) {
            int row = (round * WRITES_PER_ROUND + i) % Workload.ROWS;
            puts.add(new Put(Workload.row(row)).addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(row)));
        }
        table.put(puts);
    }

    /** Table {@link #BATCH}: {@value #BATCH_ROWS} rows of 1 KB, flushed, its blocks not cached on write. */
    private static Table batchTable(Connection connection, Admin admin) throws IOException {
        admin.createTable(TableDescriptorBuilder.newBuilder(BATCH)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                .build());
        Table table = connection.getTable(BATCH);
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < BATCH_ROWS; i++) {
            puts.add(new Put(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(i)));
        }
        table.put(puts);
        admin.flush(BATCH);
        return table;
    }

    /** {@code function} (a range function) of {@code series} summed, over the last {@code seconds}. */
    private static double overWindow(PrometheusServer prometheus, String function, String series, long seconds) {
        String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        String selector = name + "{job=\"" + RegionServerPrometheus.JOB + "\""
                + (series.contains("{") ? "," + series.substring(series.indexOf('{') + 1) : "}");
        JsonNode rows = prometheus.query("max(" + function + "(" + selector + "[" + seconds + "s]))");
        return rows.size() == 0 ? Double.NaN : rows.get(0).path("value").get(1).asDouble();
    }

    private static void report(RegionServerProcess server, Instant start) {
        Scrape now = Scrape.of(server.metricsUri());
        System.out.printf(
                "healthy +%3d s: pool buffers in use %.0f, stuck %.0f; outstanding refs %.0f, stuck %.0f%n",
                Duration.between(start, Instant.now()).toSeconds(),
                now.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                now.value("blockscope_allocator_pool_buffers_stuck"),
                now.sum("blockscope_block_refs_outstanding"),
                now.sum("blockscope_block_refs_stuck"));
    }
}
