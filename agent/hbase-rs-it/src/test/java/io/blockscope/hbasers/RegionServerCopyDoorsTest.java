package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.hbasers.server.CloningValueFilter;
import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Copies of offheap cells that never call {@code getXxxArray()}, on a real HBase RegionServer with
 * the agent: a filter that clones values with {@code CellUtil.cloneValue} (the reference guide's
 * idiom) and HBase's own {@code SingleColumnValueFilter} with a {@code RegexStringComparator}, whose
 * inherited {@code ByteArrayComparable.compareTo(ByteBuffer, int, int)} copies each value it is
 * given. Each is counted in bytes against what HBase's code copied and named; a comparator that
 * reads the buffer in place ({@code BinaryComparator}) and the write path's copies are not avoidable
 * copies; reverse scans and FAST_DIFF and ROW_INDEX_V1 blocks count the same; the hot-copy alert
 * fires on the cloning filter; Append's read-modify-write copies the old values.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerCopyDoorsTest {

    static final String CLONING_SITE = CloningValueFilter.class.getName() + ".filterCell:";
    /** SingleColumnValueFilter.filterColumnValue compares through PrivateCellUtil.compareValue. */
    static final String REGEX_SITE =
            "org.apache.hadoop.hbase.filter.SingleColumnValueFilter(RegexStringComparator).filterColumnValue:";

    /** HRegion's frames are HBase's read machinery: its RPC method is the site an operator can act on. */
    static final String APPEND_SITE = "org.apache.hadoop.hbase.regionserver.RSRpcServices.append:";

    /** How close the agent's bytes must come to what HBase's code copied. */
    static final double TOLERANCE = 0.05;

    @TempDir
    static Path prometheusDir;

    private WatchedRegionServer rs;

    @BeforeAll
    void start() throws Exception {
        rs = WatchedRegionServer.start(RegionServerProcess.builder().agent("copy.sample=1"), prometheusDir, "doors");
        // one full scan caches every block in the offheap BucketCache
        assertEquals(Workload.ROWS, rs.workload().scan());
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(rs);
    }

    @Test
    @Order(1)
    void writesAndPlainReadsMakeOnlyCopiesByDesign() throws Exception {
        assertEquals(500, rs.workload().multiGets(5));
        assertEquals(Workload.ROWS, rs.workload().scan());
        Scrape agent = Scrape.of(rs.server().metricsUri());
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
        long clonedBefore = rs.jmx().ledger("ClonedValueBytes");
        assertEquals(0, rs.workload().scan(new CloningValueFilter()), "the filter skips every row");
        long cloned = rs.jmx().ledger("ClonedValueBytes") - clonedBefore;
        Scrape agent = Scrape.of(rs.server().metricsUri());
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
        assertEquals(0, rs.workload().scan(regexDroppingEveryRow()));
        Scrape agent = Scrape.of(rs.server().metricsUri());
        long copied = valueBytes(agent) - before;
        // HBase's code copies every value the comparator is handed: one per row
        assertWithinTolerance(copied, (long) Workload.ROWS * Workload.VALUE_BYTES, "regex value filter");
        assertEquals(
                copied,
                siteSum(agent, "blockscope_copy_site_bytes_total", REGEX_SITE),
                "named after the filter and its comparator: " + agent.describe("blockscope_copy_site_bytes_total"));
    }

    @Test
    @Order(4)
    void aReverseScanCopiesAsAForwardOne() throws Exception {
        long before = valueBytes();
        assertEquals(0, rs.workload().reverseScan(regexDroppingEveryRow()));
        Scrape agent = Scrape.of(rs.server().metricsUri());
        assertWithinTolerance(valueBytes(agent) - before, (long) Workload.ROWS * Workload.VALUE_BYTES, "reverse");
    }

    /**
     * Encoded blocks hand out other cells: FAST_DIFF's decoded cells keep row, family and qualifier
     * in a heap key buffer and value and tags in the block; ROW_INDEX_V1's are ByteBufferKeyValues
     * over the block. Plain scans copy no value; the regex comparator copies every value.
     */
    @ParameterizedTest
    @EnumSource(
            value = DataBlockEncoding.class,
            names = {"FAST_DIFF", "ROW_INDEX_V1"})
    @Order(5)
    void encodedBlocksCountTheSameCopies(DataBlockEncoding encoding) throws Exception {
        try (Workload encoded =
                Workload.create(rs.server(), "doors_" + encoding.name().toLowerCase(Locale.ROOT), encoding)) {
            assertEquals(Workload.ROWS, encoded.scan(), "a scan caches every block");
            long before = valueBytes();
            assertEquals(Workload.ROWS, encoded.scan());
            assertEquals(before, valueBytes(), encoding + ": a plain scan copies no value");
            assertEquals(0, encoded.scan(regexDroppingEveryRow()));
            Scrape agent = Scrape.of(rs.server().metricsUri());
            assertWithinTolerance(
                    valueBytes(agent) - before, (long) Workload.ROWS * Workload.VALUE_BYTES, encoding.name());
        }
    }

    @Test
    @Order(6)
    void aComparatorThatReadsTheBufferInPlaceCopiesNothing() throws Exception {
        long before = valueBytes();
        ValueFilter binary = new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.value(7)));
        long rows = IntStream.range(0, Workload.ROWS)
                .filter(i -> Arrays.equals(Workload.value(i), Workload.value(7)))
                .count();
        assertEquals(rows, rs.workload().scan(binary), "the rows with that value");
        assertEquals(before, valueBytes(), "BinaryComparator overrides the buffer path: no copy");
    }

    @Test
    @Order(7)
    void theHotCopyAlertFiresOnTheCloningFilter() throws Exception {
        String expression = rs.prometheus().alertExpression("BlockscopeHotCopyPath");
        JsonNode hot = null;
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            assertEquals(0, rs.workload().scan(new CloningValueFilter()));
            hot = rs.prometheus().query(expression);
            if (hot.size() > 0) {
                break;
            }
        }
        assertEquals(1, hot.size(), "the hot-copy expression under CellUtil.cloneValue: " + hot + "\n" + expression);
        JsonNode top = rs.prometheus()
                .query("topk(1, instance_site:blockscope_copy_site_bytes:rate1m{instance='" + rs.target() + "'})");
        assertTrue(top.get(0).path("metric").path("site").asText().startsWith(CLONING_SITE), "top site " + top);
    }

    /** Append reads each old value with getValueArray() to build the new one (HRegion's reckonDeltas). */
    @Test
    @Order(8)
    void appendCopiesTheOldValuesOfCachedRows() throws Exception {
        long before = valueBytes();
        rs.workload().append(100, new byte[] {'!'});
        Scrape agent = Scrape.of(rs.server().metricsUri());
        long copied = valueBytes(agent) - before;
        assertWithinTolerance(copied, 100L * Workload.VALUE_BYTES, "append");
        assertEquals(
                copied,
                siteSum(agent, "blockscope_copy_site_bytes_total", APPEND_SITE),
                "named after HBase's Append call: " + agent.describe("blockscope_copy_site_bytes_total"));
    }

    private static SingleColumnValueFilter regexDroppingEveryRow() {
        // "." matches every value: NOT_EQUAL then drops every row, so nothing is sent back
        return new SingleColumnValueFilter(
                Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, new RegexStringComparator("."));
    }

    /** HBase's code copied {@code hbaseCopies} bytes at most; a block still in the RAM queue is on the heap. */
    private static void assertWithinTolerance(long counted, long hbaseCopies, String what) {
        System.out.printf("%s: %d value bytes counted, HBase's code copied at most %d%n", what, counted, hbaseCopies);
        assertTrue(
                counted >= hbaseCopies * (1 - TOLERANCE) && counted <= hbaseCopies,
                what + ": value bytes counted " + counted + " of " + hbaseCopies);
    }

    private long valueBytes() {
        return valueBytes(Scrape.of(rs.server().metricsUri()));
    }

    private static long valueBytes(Scrape agent) {
        return (long) agent.value("blockscope_copy_to_heap_bytes_total", "component", "value");
    }

    private static long siteSum(Scrape agent, String metric, String sitePrefix) {
        return (long) agent.sum(metric, l -> l.getOrDefault("site", "").startsWith(sitePrefix));
    }
}
