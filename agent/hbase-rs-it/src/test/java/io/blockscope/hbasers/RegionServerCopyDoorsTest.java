package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.hbasers.server.CloningValueFilter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copies of offheap cells that never call {@code getXxxArray()}, on a real HBase RegionServer with
 * the agent: a filter that clones values with {@code CellUtil.cloneValue} (the reference guide's
 * idiom) and HBase's own {@code SingleColumnValueFilter} with a {@code RegexStringComparator}, whose
 * inherited {@code ByteArrayComparable.compareTo(ByteBuffer, int, int)} copies each value it is
 * given. Each is counted in bytes against what HBase's code copied and named; a comparator that
 * reads the buffer in place ({@code BinaryComparator}) and the write path's copies are not avoidable
 * copies; the hot-copy alert fires on the cloning filter.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerCopyDoorsTest {

    static final String CLONING_SITE = CloningValueFilter.class.getName() + ".filterCell:";
    /** SingleColumnValueFilter.filterColumnValue compares through PrivateCellUtil.compareValue. */
    static final String REGEX_SITE =
            "org.apache.hadoop.hbase.filter.SingleColumnValueFilter(RegexStringComparator).filterColumnValue:";

    /** How close the agent's bytes must come to what HBase's code copied. */
    static final double TOLERANCE = 0.05;

    @TempDir
    static Path prometheusDir;

    private RegionServerProcess server;
    private ServerJmx jmx;
    private Workload workload;
    private Prometheus prometheus;
    private String target;

    @BeforeAll
    void start() throws Exception {
        server = RegionServerProcess.builder().agent("copy.sample=1").start();
        jmx = ServerJmx.connect(server.pid());
        target = server.metricsUri().getAuthority();
        prometheus = Prometheus.start(prometheusDir, target, Prometheus.shippedRules());
        workload = Workload.create(server, "doors");
        // one full scan caches every block in the offheap BucketCache
        assertEquals(Workload.ROWS, workload.scan());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {workload, prometheus, jmx, server}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    @Order(1)
    void writesAndPlainReadsMakeOnlyCopiesByDesign() throws Exception {
        assertEquals(500, workload.multiGets(5));
        assertEquals(Workload.ROWS, workload.scan());
        Scrape agent = Scrape.of(server.metricsUri());
        assertAll(
                () -> assertEquals(
                        0,
                        agent.value("blockscope_copy_to_heap_bytes_total", "component", "value"),
                        "no value copied by loading, multi-gets and scans"),
                // The load's puts arrive in the RPC server's pooled offheap buffers: each Put takes its
                // cells' family out of them (Mutation.add), once per cell.
                () -> assertTrue(
                        agent.value("blockscope_copy_by_design_total", "operation", "write") >= Workload.ROWS,
                        "the write path's family copies, by design: "
                                + agent.describe("blockscope_copy_by_design_total")),
                // A scan keeps its position's key past each batch it ships (beforeShipped).
                () -> assertTrue(
                        agent.value("blockscope_copy_by_design_total", "operation", "retained-key") > 0,
                        "keys kept across the scans' RPC batches, by design"));
    }

    @Test
    @Order(2)
    void cellUtilCloneValueIsCountedAtTheFilterThatCallsIt() throws Exception {
        long before = valueBytes();
        long clonedBefore = jmx.ledger("ClonedValueBytes");
        assertEquals(0, workload.scan(new CloningValueFilter()), "the filter skips every row");
        long cloned = jmx.ledger("ClonedValueBytes") - clonedBefore;
        Scrape agent = Scrape.of(server.metricsUri());
        // Nearly all: a cell of a block still in the BucketCache's RAM queue is on the heap.
        assertTrue(cloned >= Workload.ROWS * Workload.VALUE_BYTES * 9L / 10, "offheap bytes cloned: " + cloned);
        assertAll(
                () -> assertEquals(cloned, valueBytes(agent) - before, "value bytes: exactly what was cloned"),
                () -> assertEquals(
                        cloned,
                        siteSum(agent, "blockscope_copy_site_bytes_total", CLONING_SITE),
                        "named after the filter's method: " + agent.describe("blockscope_copy_site_bytes_total")));
    }

    @Test
    @Order(3)
    void aRegexValueFilterIsCountedWithItsComparator() throws Exception {
        long before = valueBytes();
        // "." matches every value: NOT_EQUAL then drops every row, so nothing is sent back
        SingleColumnValueFilter regex = new SingleColumnValueFilter(
                Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, new RegexStringComparator("."));
        assertEquals(0, workload.scan(regex));
        Scrape agent = Scrape.of(server.metricsUri());
        long copied = valueBytes(agent) - before;
        System.out.printf(
                "regex value filter: %d value bytes counted, HBase's code copied at most %d%n",
                copied, (long) Workload.ROWS * Workload.VALUE_BYTES);
        // HBase's code copies every value the comparator is handed (one per row, all offheap here but
        // for a block still in the RAM queue)
        long hbaseCopies = (long) Workload.ROWS * Workload.VALUE_BYTES;
        assertTrue(
                copied >= hbaseCopies * (1 - TOLERANCE) && copied <= hbaseCopies,
                "value bytes the regex comparator copied: " + copied + " of " + hbaseCopies);
        assertEquals(
                copied,
                siteSum(agent, "blockscope_copy_site_bytes_total", REGEX_SITE),
                "named after the filter and its comparator: " + agent.describe("blockscope_copy_site_bytes_total"));
    }

    @Test
    @Order(4)
    void aComparatorThatReadsTheBufferInPlaceCopiesNothing() throws Exception {
        long before = valueBytes();
        ValueFilter binary = new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.value(7)));
        long rows = IntStream.range(0, Workload.ROWS)
                .filter(i -> Arrays.equals(Workload.value(i), Workload.value(7)))
                .count();
        assertEquals(rows, workload.scan(binary), "the rows with that value");
        assertEquals(before, valueBytes(), "BinaryComparator overrides the buffer path: no copy");
    }

    @Test
    @Order(5)
    void theHotCopyAlertFiresOnTheCloningFilter() throws Exception {
        String expression = prometheus.alertExpression("BlockscopeHotCopyPath");
        JsonNode hot = null;
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            assertEquals(0, workload.scan(new CloningValueFilter()));
            hot = prometheus.query(expression);
            if (hot.size() > 0) {
                break;
            }
        }
        assertEquals(1, hot.size(), "the hot-copy expression under CellUtil.cloneValue: " + hot + "\n" + expression);
        JsonNode top =
                prometheus.query("topk(1, instance_site:blockscope_copy_site_bytes:rate1m{instance='" + target + "'})");
        assertTrue(top.get(0).path("metric").path("site").asText().startsWith(CLONING_SITE), "top site " + top);
    }

    private long valueBytes() {
        return valueBytes(Scrape.of(server.metricsUri()));
    }

    private static long valueBytes(Scrape agent) {
        return (long) agent.value("blockscope_copy_to_heap_bytes_total", "component", "value");
    }

    private static long siteSum(Scrape agent, String metric, String sitePrefix) {
        return (long) agent.sum(metric, l -> l.getOrDefault("site", "").startsWith(sitePrefix));
    }
}
