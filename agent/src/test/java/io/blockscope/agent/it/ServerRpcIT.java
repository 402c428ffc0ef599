package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.agenttest.host.ValueCopyingFilter;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.rpc.RpcClient;
import io.blockscope.testsupport.Scrape;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The example server in its own JVM ({@code serve}, from its runnable jar) with {@code -javaagent},
 * driven over RPC by a deterministic workload: the agent's counters equal the server's own
 * statistics, references come back to zero, the copying filter is the hot copy site.
 */
class ServerRpcIT {

    private static final int ROWS = 2000;
    private static final int VALUE_SIZE = 1000;
    private static final String TABLE = "TestTable";

    @Test
    void countersMatchTheServersOwnStatisticsOverRpc() throws Exception {
        String classPath = serverJar() + File.pathSeparator + ChildJvm.classPath();
        try (ChildJvm server = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,leak.sample=1,leak.rate=0,copy.sample=1")
                .jvmOption("-XX:MaxDirectMemorySize=256m")
                .classPath(classPath)
                .start(
                        "io.blockscope.server.cli.Main",
                        "serve",
                        "--rows",
                        Integer.toString(ROWS),
                        "--port",
                        "0",
                        "--value-size",
                        Integer.toString(VALUE_SIZE),
                        "--l2-size",
                        "64m",
                        "--l1-size",
                        "16m",
                        "--allow-filter-classes",
                        ValueCopyingFilter.class.getName())) {
            String url = server.awaitOut(Pattern.compile("blockscope-example-server listening on (http://\\S+)"));
            int agentPort =
                    Integer.parseInt(server.awaitErr(Pattern.compile("metrics at http://[^:]+:(\\d+)/metrics")));
            RpcClient client = new RpcClient(URI.create(url), Duration.ofSeconds(30));

            // twice the same 100 single-row gets and one 100-row multiget: first misses fill the cache, then hits
            for (int round = 0; round < 2; round++) {
                for (int row = 0; row < ROWS; row += 20) {
                    assertEquals(
                            1, client.get(TABLE, TableSpec.rowKey(row), true).rows());
                }
            }
            List<byte[]> rows = new ArrayList<>();
            for (int row = 1; row < ROWS; row += 20) {
                rows.add(TableSpec.rowKey(row));
            }
            assertEquals(100, client.multiGet(TABLE, rows, true).rows());

            // a scan of 500 rows through the copying filter: one value copy per row
            long scanned = 0;
            for (RpcClient.Reply reply : client.scanAll(
                    TABLE,
                    RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(500))
                            .withFilter("class:" + ValueCopyingFilter.class.getName()))) {
                scanned += reply.rowsScanned();
            }
            assertEquals(500, scanned);

            Scrape scrape = awaitIdle(agentPort);
            JsonNode status = client.status().get("cache");
            for (String tier : List.of("l1", "l2")) {
                JsonNode stats = status.get(tier).get("stats");
                double hits = scrape.count("blockscope_block_cache_gets_total", "tier", tier, "result", "hit");
                assertEquals(stats.get("hits").asLong(), (long) hits, tier + " hits\n" + status);
                assertEquals(
                        stats.get("misses").asLong(),
                        (long) scrape.count("blockscope_block_cache_gets_total", "tier", tier, "result", "miss"),
                        tier + " misses");
                // every hit is returned, and so is each block the server fetched again right after caching it
                // (a lookup its statistics leave out, "counted": "arg3" in the profile): one per cached block
                assertEquals(
                        hits + status.get(tier).get("blockCount").asLong(),
                        scrape.count("blockscope_block_cache_returns_total", "tier", tier),
                        tier + " returns");
                assertEquals(0, scrape.value("blockscope_block_refs_outstanding", "tier", tier), tier);
            }
            assertTrue(
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit") > 0,
                    scrape.text());
            // leaks carry site and reason labels: the sum over all of them, not a bare-name lookup
            assertEquals(0, scrape.sum("blockscope_block_leaks_total"), scrape.text());

            assertEquals(500, scrape.value("blockscope_copy_to_heap_total", "component", "value"));
            assertEquals(500L * VALUE_SIZE, scrape.value("blockscope_copy_to_heap_bytes_total", "component", "value"));
            Scrape.Sample site = scrape
                    .matching(
                            "blockscope_copy_site_calls_total",
                            l -> l.getOrDefault("site", "")
                                    .contains(ValueCopyingFilter.class.getName() + ".filterCell:"))
                    .stream()
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no copy site for the filter\n" + scrape.text()));
            assertEquals(500, site.value());

            JsonNode l2 = status.get("l2");
            assertEquals(l2.get("usedBytes").asLong(), (long) scrape.value("blockscope_bucket_cache_used_bytes"));
            assertEquals(l2.get("wastedBytes").asLong(), (long) scrape.value("blockscope_bucket_cache_wasted_bytes"));
            assertEquals(
                    l2.get("capacityBytes").asLong(), (long) scrape.value("blockscope_bucket_cache_capacity_bytes"));
            for (JsonNode c : l2.get("bucketClasses")) {
                String size = c.get("itemSize").asText();
                assertEquals(
                        c.get("usedCount").asLong(),
                        (long) scrape.value("blockscope_bucket_slots", "size_class", size, "state", "used"),
                        size);
                assertEquals(
                        c.get("freeCount").asLong(),
                        (long) scrape.value("blockscope_bucket_slots", "size_class", size, "state", "free"),
                        size);
                assertEquals(
                        c.get("usedBytes").asLong(),
                        (long) scrape.value("blockscope_bucket_bytes", "size_class", size, "state", "used"),
                        size);
            }
            assertEquals(1, scrape.value("blockscope_read_path_mode", "mode", "zero-copy"));
        }
    }

    /** Scrapes until no reference is outstanding: the server gives blocks back after writing each response. */
    private static Scrape awaitIdle(int port) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Scrape scrape;
        do {
            scrape = Scrape.of(port);
            if (scrape.count("blockscope_block_refs_outstanding", "tier", "l1") == 0
                    && scrape.count("blockscope_block_refs_outstanding", "tier", "l2") == 0) {
                return scrape;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        return scrape;
    }

    static Path serverJar() {
        Path jar = Path.of(System.getProperty("blockscope.server.jar", "missing"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("example server jar not found at " + jar + ": build it first"
                    + " (mvn -pl agent -am verify builds it in the same reactor)");
        }
        return jar;
    }
}
