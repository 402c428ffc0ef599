package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * A client that reads one row per RPC, {@link #PAUSE} apart, for longer than {@code leak.age} +
 * 60 s, over a table just flushed (its blocks read from disk into pool buffers): its scanner stands
 * on one block for minutes, in one pool buffer, and nothing leaks. The agent at its defaults must
 * not count that buffer stuck, nor select BlockscopePoolBuffersStuck: every scan RPC ends in the
 * scanner's {@code shipped()}, whose probe (scanner-shipped) restarts the age of the buffers the
 * scanner's current block lives in. Without that probe (a profile without it) the buffer counts
 * stuck from 60 s on.
 */
// Three minutes of a slow client on its own RegionServer, mostly waiting: overlaps the other classes.
@Execution(ExecutionMode.CONCURRENT)
class RegionServerSlowScannerTest {

    /** The agent's defaults: leak.age=60s. */
    static final String AGENT = "";

    static final Duration PAUSE = Duration.ofSeconds(7);
    /** leak.age (60 s) + 60 s, and some: the alert's window with the buffer held throughout. */
    static final Duration WINDOW = Duration.ofSeconds(150);

    static final TableName TABLE = TableName.valueOf("slow");
    /** 1 KB rows, 64 KiB blocks: about 60 rows, 7 minutes of this client, per block. */
    static final int ROWS = 500;

    @TempDir
    Path prometheusDir;

    @Test
    void aScannerReadingOneRowEverySevenSecondsHoldsNoStuckBuffer() throws Exception {
        try (RegionServerProcess server =
                        RegionServerProcess.builder().agent(AGENT).start();
                PrometheusServer prometheus = RegionServerPrometheus.start(
                        prometheusDir, server.metricsUri().getAuthority());
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                    .build());
            try (Table table = connection.getTable(TABLE)) {
                List<Put> puts = new ArrayList<>();
                for (int i = 0; i < ROWS; i++) {
                    puts.add(
                            new Put(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(i)));
                }
                table.put(puts);
                admin.flush(TABLE); // written without caching: the scan reads the file from disk
                Instant start = Instant.now();
                int rows = 0;
                double maxInUseWhileScanning = 0;
                List<String> seen = new ArrayList<>();
                // caching 1: one row per RPC, each RPC ending in the scanner's shipped()
                try (ResultScanner scanner = table.getScanner(new Scan().setCaching(1))) {
                    while (Duration.between(start, Instant.now()).compareTo(WINDOW) < 0) {
                        Result result = scanner.next();
                        assertEquals(Workload.VALUE_BYTES, result.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
                        rows++;
                        Scrape now = Scrape.of(server.metricsUri());
                        double inUse = now.value("blockscope_allocator_pool_buffers", "state", "in_use");
                        double stuck = now.value("blockscope_allocator_pool_buffers_stuck");
                        maxInUseWhileScanning = Math.max(maxInUseWhileScanning, inUse);
                        seen.add(String.format(
                                "+%d s: in use %.0f, stuck %.0f",
                                Duration.between(start, Instant.now()).toSeconds(), inUse, stuck));
                        RegionServerProcess.sleep(PAUSE.toMillis());
                    }
                }
                long window = Duration.between(start, Instant.now()).toSeconds();
                Scrape after = Scrape.of(server.metricsUri());
                double maxStuck = max(prometheus, "blockscope_allocator_pool_buffers_stuck", window);
                JsonNode alerts = prometheus.query("ALERTS{alertname=\"BlockscopePoolBuffersStuck\"}[" + window + "s]");
                System.out.printf(
                        "HBase %s, a scanner of 1 row per RPC %d s apart for %d s: %d rows; max pool buffers in"
                                + " use %.0f, max stuck %.0f over the window; alerts %s; %s%n",
                        System.getProperty("blockscope.hbase.version"),
                        PAUSE.toSeconds(),
                        window,
                        rows,
                        maxInUseWhileScanning,
                        maxStuck,
                        alerts,
                        seen);
                double inUse = maxInUseWhileScanning;
                int read = rows;
                assertAll(
                        () -> assertTrue(inUse > 0, "the scanner's block lives in a pool buffer: " + seen),
                        () -> assertTrue(
                                read >= WINDOW.toSeconds() / (PAUSE.toSeconds() + 1), "one row per pause: " + read),
                        () -> assertEquals(0, maxStuck, "no pool buffer counted stuck at any scrape: " + seen),
                        () -> assertEquals(0, alerts.size(), "BlockscopePoolBuffersStuck never selected: " + alerts),
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
    }

    /** The highest value of {@code name} over the last {@code seconds}, at Prometheus's every-second scrapes. */
    private static double max(PrometheusServer prometheus, String name, long seconds) {
        JsonNode rows = prometheus.query(
                "max(max_over_time(" + name + "{job=\"" + RegionServerPrometheus.JOB + "\"}[" + seconds + "s]))");
        return rows.size() == 0 ? Double.NaN : rows.get(0).path("value").get(1).asDouble();
    }
}
