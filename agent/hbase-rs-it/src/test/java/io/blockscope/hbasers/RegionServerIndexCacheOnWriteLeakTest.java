package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Index blocks cached on write, as a user turns it on ({@code CACHE_INDEX_ON_WRITE}), on real
 * RegionServers with the agent at start. When a flush writes an HFile, HBase builds each index
 * block it caches into a buffer from the RPC server's pool ({@code HFileBlock.Writer
 * #getBlockForCaching}); the L1 cache keeps a heap copy, so the builder must release the pooled one.
 *
 * <ul>
 *   <li>HBASE-28890: 2.6.0 never releases the root index block's buffer, one pool buffer per
 *       flush; 2.6.1 does. A family of 4 KiB blocks makes the root index larger than
 *       {@code hbase.server.allocator.minimal.allocate.size}, so it comes from the pool.
 *   <li>HBASE-30038: 2.6.4 (and 2.6.1) never release the intermediate index blocks of a multi-level
 *       index. 2.6.6 has the fix, but its jars are not served here, so only the bug is shown.
 * </ul>
 *
 * The agent must count the buffers as leaks of kind {@code buffer}, named by the index writer that
 * took them, with no block checkout leaked, and the shipped leak alert must select the server for
 * buffer leaks; on 2.6.1's root-index case nothing is reported.
 */
class RegionServerIndexCacheOnWriteLeakTest {

    static final String AGENT = "leak.sample=1,leak.rate=0,leak.age=5s";
    /** Flushes of {@link #ROWS_PER_FLUSH} rows of 1 KB: one HFile, so one root index, each. */
    static final int FLUSHES = 6;

    static final int ROWS_PER_FLUSH = 2_000;
    /** The frames of the index writer, where the leaked buffers are taken. */
    static final String WRITER_SITE = "org.apache.hadoop.hbase.io.hfile.HFileBlock$Writer.";

    @TempDir
    Path prometheusDir;

    /** HBASE-28890's release, then its fix (the build passes both). */
    static Stream<Arguments> hbase28890() {
        String[] releases =
                RegionServerProcess.required("blockscope.hbase.hbase28890").split(",");
        return Stream.of(Arguments.of(releases[0], true), Arguments.of(releases[1], false));
    }

    @ParameterizedTest(name = "HBase {0}, leaks root index buffers: {1}")
    @MethodSource("hbase28890")
    void rootIndexBlocksCachedOnWriteLeakOnlyWhereTheBugIs(String release, boolean leaks) throws Exception {
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .hbaseClassPath(ReleaseClassPath.of(release))
                        .agent(AGENT)
                        .start();
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration())) {
            flushIndexedTable(
                    connection,
                    ColumnFamilyDescriptorBuilder.newBuilder(Workload.FAMILY)
                            .setBlocksize(4096)
                            .setCacheIndexesOnWrite(true));
            try (PrometheusServer prometheus = RegionServerPrometheus.start(
                    prometheusDir, server.metricsUri().getAuthority())) {
                if (leaks) {
                    leakedBuffersAreNamedAndAlerted(release, server, prometheus, FLUSHES - 1);
                } else {
                    nothingIsReported(release, server, prometheus);
                }
            }
        }
    }

    @Test
    void intermediateIndexBlocksCachedOnWriteLeakOn264() throws Exception {
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .agent(AGENT)
                        // every index block from the pool, however small (HBase's default pools those above a
                        // sixth of a buffer)
                        .site("hbase.server.allocator.minimal.allocate.size", "0")
                        .start();
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration())) {
            // 1 KiB data blocks and 1 KiB index chunks: three index levels per file, the middle one intermediate
            flushIndexedTable(
                    connection,
                    ColumnFamilyDescriptorBuilder.newBuilder(Workload.FAMILY)
                            .setBlocksize(1024)
                            .setConfiguration("hfile.index.block.max.size", "1024")
                            .setCacheIndexesOnWrite(true));
            try (PrometheusServer prometheus = RegionServerPrometheus.start(
                    prometheusDir, server.metricsUri().getAuthority())) {
                leakedBuffersAreNamedAndAlerted(
                        System.getProperty("blockscope.hbase.version"), server, prometheus, FLUSHES);
            }
        }
    }

    /** Creates table "indexed" with {@code family}, and writes and flushes {@link #FLUSHES} HFiles. */
    private static void flushIndexedTable(Connection connection, ColumnFamilyDescriptorBuilder family)
            throws IOException {
        TableName name = TableName.valueOf("indexed");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(name)
                    .setColumnFamily(family.build())
                    .build());
            try (Table table = connection.getTable(name)) {
                for (int flush = 0; flush < FLUSHES; flush++) {
                    List<Put> puts = new ArrayList<>();
                    for (int i = 0; i < ROWS_PER_FLUSH; i++) {
                        int row = flush * ROWS_PER_FLUSH + i;
                        puts.add(new Put(Workload.row(row))
                                .addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(row)));
                    }
                    table.put(puts);
                    admin.flush(name);
                }
            }
        }
    }

    private static void leakedBuffersAreNamedAndAlerted(
            String release, RegionServerProcess server, PrometheusServer prometheus, int atLeast) {
        // buffers still held are reported at leak.age, collected ones at the next GC
        Scrape agent = LeakChecks.awaitScrape(
                server, s -> s.sum("blockscope_block_leaks_total", LeakChecks.kind("buffer")) >= atLeast);
        List<Scrape.Sample> bufferLeaks = agent.matching("blockscope_block_leaks_total", LeakChecks.kind("buffer"));
        System.out.printf(
                "HBase %s: pool buffers in use %.0f of %.0f, buffer leaks %s%n",
                release,
                agent.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                agent.value("blockscope_allocator_pool_buffers_max"),
                LeakChecks.describe(bufferLeaks));
        assertAll(
                () -> assertTrue(
                        agent.sum("blockscope_block_leaks_total", LeakChecks.kind("buffer")) >= atLeast,
                        "at least " + atLeast + " leaked index buffers counted: " + LeakChecks.describe(bufferLeaks)),
                () -> assertTrue(
                        bufferLeaks.stream()
                                .filter(s -> s.value() > 0)
                                .allMatch(s -> s.labels().get("site").startsWith(WRITER_SITE)),
                        "every leaked buffer named by the index writer that took it: "
                                + LeakChecks.describe(bufferLeaks)),
                () -> assertEquals(
                        0,
                        agent.sum("blockscope_block_leaks_total", LeakChecks.kind("checkout")),
                        "no block checkout leaked: " + agent.describe("blockscope_block_leaks_total")));
        JsonNode leaked = LeakChecks.awaitAlertExpression(prometheus, "BlockscopeBlockRefLeak", true);
        assertEquals(
                List.of("buffer"),
                LeakChecks.labelValues(leaked, "kind"),
                "the leak alert selects the server for buffer leaks only: " + leaked);
    }

    private static void nothingIsReported(String release, RegionServerProcess server, PrometheusServer prometheus) {
        // longer than leak.age: a buffer still held would be reported by now
        RegionServerProcess.sleep(8_000);
        Scrape agent = Scrape.of(server.metricsUri());
        System.out.printf(
                "HBase %s: pool buffers in use %.0f of %.0f, leaks %s%n",
                release,
                agent.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                agent.value("blockscope_allocator_pool_buffers_max"),
                agent.describe("blockscope_block_leaks_total"));
        assertAll(
                () -> assertTrue(
                        agent.value("blockscope_allocator_bytes_total", "source", "pool") > 0,
                        "the index blocks were built in pool buffers"),
                () -> assertEquals(
                        0,
                        agent.sum("blockscope_block_leaks_total", l -> true),
                        "no leak: " + agent.describe("blockscope_block_leaks_total")),
                () -> assertEquals(
                        0,
                        LeakChecks.awaitAlertExpression(prometheus, "BlockscopeBlockRefLeak", false)
                                .size(),
                        "the leak alert selects nothing"));
    }
}
