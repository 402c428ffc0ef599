package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToDoubleFunction;
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
 * Two clients that each read one row per RPC, {@link #PAUSE} apart, for longer than {@code leak.age}
 * + 60 s, at once, on one RegionServer (offheap BucketCache): one over a table just flushed (its
 * blocks read from disk into pool buffers), one over a table read twice before (its blocks served
 * from the BucketCache, each hit a block reference the scanner must release). Each scanner stands on
 * one block for minutes, and nothing leaks. The agent at its defaults must count neither the pool
 * buffer nor the block reference stuck, nor select BlockscopePoolBuffersStuck or
 * BlockscopeBlockRefsStuck: every scan RPC ends in the scanner's {@code shipped()}, whose probe
 * (scanner-shipped) restarts the age of its current block's checkout and of the buffers that block
 * lives in. Without that probe (a profile without it) the buffer counts stuck from 60 s on; without
 * the touch of the checkout, the reference from about 70 s on (leak.age plus up to two epochs).
 */
// Three minutes of two slow clients on their own RegionServer, mostly waiting: overlaps the other classes.
@Execution(ExecutionMode.CONCURRENT)
class RegionServerSlowScannerTest {

    /** The agent's defaults: leak.age=60s. */
    static final String AGENT = "";

    static final Duration PAUSE = Duration.ofSeconds(7);
    /** leak.age (60 s) + 60 s, and some: the alerts' window with the block held throughout. */
    static final Duration WINDOW = Duration.ofSeconds(150);

    /** Flushed and never read before: the slow scan reads its blocks from disk into pool buffers. */
    static final TableName FROM_DISK = TableName.valueOf("slow");
    /** Read twice before the slow scan: its blocks come from the offheap BucketCache. */
    static final TableName CACHED = TableName.valueOf("slow_cached");
    /** 1 KB rows, 64 KiB blocks: about 60 rows, 7 minutes of this client, per block. */
    static final int ROWS = 500;

    @TempDir
    Path prometheusDir;

    /** What one slow client saw: rows read and, at each of its looks, the blocks held and stuck. */
    record SlowScan(int rows, double maxHeld, List<String> seen) {}

    @Test
    void scannersReadingOneRowEverySevenSecondsHoldNothingStuck() throws Exception {
        try (RegionServerProcess server =
                        RegionServerProcess.builder().agent(AGENT).start();
                PrometheusServer prometheus = RegionServerPrometheus.start(
                        prometheusDir, server.metricsUri().getAuthority());
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                Admin admin = connection.getAdmin()) {
            load(connection, admin, FROM_DISK); // written without caching: read from disk below
            load(connection, admin, CACHED);
            try (Table table = connection.getTable(CACHED)) {
                for (int i = 0; i < 2; i++) { // the first read caches the blocks, the second hits them
                    try (ResultScanner scanner = table.getScanner(new Scan())) {
                        scanner.forEach(r -> {});
                    }
                }
            }
            RegionServerProcess.sleep(3_000); // the BucketCache's writers move the blocks off the RAM queue
            Scrape before = Scrape.of(server.metricsUri());
            Instant start = Instant.now();
            CompletableFuture<SlowScan> cachedScan = CompletableFuture.supplyAsync(() -> slowScan(
                    connection,
                    CACHED,
                    server,
                    s -> s.value("blockscope_block_refs_outstanding", "tier", "l2"),
                    s -> s.value("blockscope_block_refs_stuck", "tier", "l2")));
            SlowScan fromDisk = slowScan(
                    connection,
                    FROM_DISK,
                    server,
                    s -> s.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                    s -> s.value("blockscope_allocator_pool_buffers_stuck"));
            SlowScan cached = cachedScan.get();
            long window = Duration.between(start, Instant.now()).toSeconds();
            Scrape after = Scrape.of(server.metricsUri());
            double l2Hits = after.value("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit")
                    - before.value("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit");
            double maxStuckBuffers = max(prometheus, "blockscope_allocator_pool_buffers_stuck", window);
            double maxStuckRefs = max(prometheus, "blockscope_block_refs_stuck", window);
            JsonNode alerts = prometheus.query(
                    "ALERTS{alertname=~\"BlockscopePoolBuffersStuck|BlockscopeBlockRefsStuck\"}[" + window + "s]");
            System.out.printf(
                    "HBase %s, two scanners of 1 row per RPC %d s apart for %d s. From disk: %d rows, max pool"
                            + " buffers in use %.0f, max stuck %.0f over the window; %s. From the BucketCache: %d"
                            + " rows, %.0f l2 hits, max l2 refs outstanding %.0f, max refs stuck %.0f over the"
                            + " window; %s. Alerts %s%n",
                    System.getProperty("blockscope.hbase.version"),
                    PAUSE.toSeconds(),
                    window,
                    fromDisk.rows(),
                    fromDisk.maxHeld(),
                    maxStuckBuffers,
                    fromDisk.seen(),
                    cached.rows(),
                    l2Hits,
                    cached.maxHeld(),
                    maxStuckRefs,
                    cached.seen(),
                    alerts);
            long rows = WINDOW.toSeconds() / (PAUSE.toSeconds() + 1);
            assertAll(
                    () -> assertTrue(fromDisk.maxHeld() > 0, "the scanner's block lives in a pool buffer: " + fromDisk),
                    () -> assertTrue(fromDisk.rows() >= rows, "one row per pause: " + fromDisk),
                    () -> assertEquals(
                            0, maxStuckBuffers, "no pool buffer counted stuck at any scrape: " + fromDisk.seen()),
                    () -> assertTrue(l2Hits > 0, "the cached table's blocks come from the BucketCache: " + l2Hits),
                    () -> assertTrue(cached.maxHeld() > 0, "the scanner holds a BucketCache reference: " + cached),
                    () -> assertTrue(cached.rows() >= rows, "one row per pause: " + cached),
                    () -> assertEquals(
                            0, maxStuckRefs, "no block reference counted stuck at any scrape: " + cached.seen()),
                    () -> assertEquals(0, alerts.size(), "neither stuck alert ever selected: " + alerts),
                    () -> assertEquals(
                            1,
                            after.value("blockscope_agent_probe_enabled", "probe", "scanner-shipped"),
                            "the touch probe is in"),
                    () -> assertEquals(
                            0,
                            after.count("blockscope_agent_advice_errors_total", "probe", "scanner-shipped"),
                            "the touch probe's advice never failed: " + server.agentLines()));
        }
    }

    /** Creates {@code name} with {@value #ROWS} rows of 1 KB and flushes it (without caching its blocks). */
    private static void load(Connection connection, Admin admin, TableName name) throws Exception {
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                .build());
        try (Table table = connection.getTable(name)) {
            List<Put> puts = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                puts.add(new Put(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(i)));
            }
            table.put(puts);
        }
        admin.flush(name);
    }

    /**
     * Reads {@code name} one row per RPC (caching 1: each RPC ends in the scanner's shipped()),
     * {@link #PAUSE} apart, for {@link #WINDOW}, looking at what is held and stuck after each row.
     */
    private static SlowScan slowScan(
            Connection connection,
            TableName name,
            RegionServerProcess server,
            ToDoubleFunction<Scrape> held,
            ToDoubleFunction<Scrape> stuck) {
        Instant start = Instant.now();
        int rows = 0;
        double maxHeld = 0;
        List<String> seen = new ArrayList<>();
        try (Table table = connection.getTable(name);
                ResultScanner scanner = table.getScanner(new Scan().setCaching(1))) {
            while (Duration.between(start, Instant.now()).compareTo(WINDOW) < 0) {
                Result result = scanner.next();
                assertEquals(Workload.VALUE_BYTES, result.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
                rows++;
                Scrape now = Scrape.of(server.metricsUri());
                double h = held.applyAsDouble(now);
                maxHeld = Math.max(maxHeld, h);
                seen.add(String.format(
                        "+%d s: held %.0f, stuck %.0f",
                        Duration.between(start, Instant.now()).toSeconds(), h, stuck.applyAsDouble(now)));
                RegionServerProcess.sleep(PAUSE.toMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SlowScan(rows, maxHeld, seen);
    }

    /** The highest value of {@code name} over the last {@code seconds}, at Prometheus's every-second scrapes. */
    private static double max(PrometheusServer prometheus, String name, long seconds) {
        JsonNode rows = prometheus.query(
                "max(max_over_time(" + name + "{job=\"" + RegionServerPrometheus.JOB + "\"}[" + seconds + "s]))");
        return rows.size() == 0 ? Double.NaN : rows.get(0).path("value").get(1).asDouble();
    }
}
