package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The price of a copy, proven on a real RegionServer with the agent at its defaults: the young
 * collections the copies' share of the heap allocation stands for agree with the young collections
 * a copying filter adds.
 *
 * <p>The estimate (what the live page and the dashboards show): share = {@code
 * blockscope_copy_to_heap_bytes_total} / {@code blockscope_allocated_bytes_total} over a window,
 * times {@code blockscope_gc_collections_total{gc="G1New"}} in that window. The measurement: the
 * same scans over the same data through two stock filters that return the same cells, one copying
 * every value onto the heap ({@code ValueFilter} with {@code BinaryComponentComparator}: HBase's
 * default {@code compareTo(ByteBuffer, ...)} copies the value, then compares in place, so the copy
 * is all it allocates beyond the other) and one comparing in place ({@code BinaryPrefixComparator},
 * 0 bytes copied, asserted). Young collections of the copying windows minus those of the in-place
 * windows are what the copies cost. The young generation is fixed ({@code -Xmn}), so a young
 * collection stands for a fixed amount of allocation; windows alternate in one server, no writes
 * (so no flush or compaction) run in them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerCopyPriceTest {

    static final String TABLE = "price";
    static final String COPIES = "blockscope_copy_to_heap_bytes_total";
    static final String ALLOCATED = "blockscope_allocated_bytes_total";
    static final String BY_DESIGN = "blockscope_copy_by_design_bytes_total";
    static final String COLLECTIONS = "blockscope_gc_collections_total";
    /** A fixed young generation: each young collection then stands for about as many bytes. */
    static final String YOUNG = "-Xmn32m";
    /** Scans per window and windows per filter: 0.64 GB copied per copying window, 22 young collections. */
    static final int SCANS = 160;

    static final int PAIRS = 2;
    /** JFR hands its events over about once a second: a window's last collections arrive after it. */
    static final long SETTLE_MILLIS = 3000;

    /** The first bytes of row 0's value: rows 0, 256, 512, ... share them (16 of 4,000). */
    static final byte[] PREFIX = Arrays.copyOf(Workload.value(0), 4);

    private RegionServerProcess server;
    private Workload workload;
    private Connection connection;
    private Table table;

    @BeforeAll
    void start() throws Exception {
        server = RegionServerProcess.builder()
                .agent("")
                .jvmOptions(List.of("-XX:+UseG1GC", YOUNG))
                .start();
        workload = Workload.create(server, TABLE);
        connection = ConnectionFactory.createConnection(server.clientConfiguration());
        table = connection.getTable(TableName.valueOf(TABLE));
        // plain scans put every block in the offheap BucketCache; the filters then read it in place
        for (int i = 0; i < 3; i++) {
            assertEquals(Workload.ROWS, workload.scan());
        }
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(table, connection, workload, server);
    }

    @Test
    @Order(1)
    void youngCollectionsTheCopiesShareStandsForAgreeWithThoseTheyAdd() throws Exception {
        Price price = compare("BinaryComponentComparator", copying(), inPlace(), Workload.ROWS / 256 + 1, SCANS);
        long expectedCopy = (long) PAIRS * SCANS * Workload.ROWS * Workload.VALUE_BYTES;
        assertAll(
                () -> assertEquals(0, price.inPlace.copyBytes, "the in-place filter copies nothing"),
                // every value once: on 2.6.4 all but 2 of a scan's 4,000 (0.05%) reach the filter offheap
                () -> assertTrue(
                        price.copying.copyBytes <= expectedCopy && price.copying.copyBytes >= 0.99 * expectedCopy,
                        "the copying filter copies every value, once: " + price.copying.copyBytes + " of "
                                + expectedCopy),
                () -> assertTrue(
                        price.measured() >= 20,
                        "tens of young collections of difference, to resolve 25%: " + price.measured()),
                () -> assertTrue(
                        Math.abs(price.estimate() - price.measured()) <= 0.25 * price.measured(),
                        "estimate " + price.estimate() + " within 25% of measured " + price.measured()));
    }

    /**
     * The share prices the copies, not the code that makes them: {@code RegexStringComparator} also
     * decodes each copied value into a String and matches it, so the copying filter adds more young
     * collections than its copies' share stands for. Its whole allocation difference accounts for them.
     */
    @Test
    @Order(2)
    void aCopyingFiltersOtherAllocationIsNotInTheCopiesShare() throws Exception {
        // "." matches every value: NOT_EQUAL drops every row; an empty BinaryComparator EQUAL, likewise, in place
        Filter regex = new SingleColumnValueFilter(
                Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, new RegexStringComparator("."));
        Filter binary = new SingleColumnValueFilter(
                Workload.FAMILY, Workload.QUALIFIER, CompareOperator.EQUAL, new BinaryComparator(new byte[0]));
        // the regex allocates over four times what it copies: half the scans give about 45 collections a
        // window, long enough that the tens of MiB a thread's last JFR sample carries into the next window
        // (its allocation is weighed at its next sample) stay within a few percent
        Price price = compare("RegexStringComparator", regex, binary, 0, SCANS / 2);
        double allocationShare =
                (price.copying.allocatedBytes - price.inPlace.allocatedBytes) / price.copying.allocatedBytes;
        double byAllocation = allocationShare * price.copying.youngCollections;
        System.out.printf(
                "copy price: RegexStringComparator: the allocation difference's share %.1f%% stands for %.1f young"
                        + " collections; measured %.0f%n",
                100 * allocationShare, byAllocation, price.measured());
        assertAll(
                () -> assertEquals(0, price.inPlace.copyBytes, "the in-place filter copies nothing"),
                () -> assertTrue(price.measured() >= 20, "measured " + price.measured()),
                () -> assertTrue(
                        price.estimate() < 0.75 * price.measured(),
                        "the copies' share (" + price.estimate() + ") leaves out the regex's own allocation ("
                                + price.measured() + ")"),
                () -> assertTrue(
                        Math.abs(byAllocation - price.measured()) <= 0.25 * price.measured(),
                        "allocation difference " + byAllocation + " within 25% of measured " + price.measured()));
    }

    /**
     * {@link #PAIRS} windows of {@code scans} scans through each filter, alternated after a warm-up of
     * both, each scan returning {@code rows} rows, the same through both filters.
     */
    private Price compare(String name, Filter copying, Filter inPlace, int rows, int scans)
            throws IOException, InterruptedException {
        List<String> copied = rows(copying);
        assertEquals(rows, copied.size(), "rows through the copying filter: " + copied);
        assertEquals(copied, rows(inPlace), "both filters return the same cells");
        // warm both paths (JIT) before any window counts
        run(copying, scans / 4, rows);
        run(inPlace, scans / 4, rows);
        List<Window> copyingRuns = new ArrayList<>();
        List<Window> inPlaceRuns = new ArrayList<>();
        for (int pair = 0; pair < PAIRS; pair++) {
            copyingRuns.add(run(copying, scans, rows));
            inPlaceRuns.add(run(inPlace, scans, rows));
        }
        copyingRuns.forEach(w -> System.out.println("copy price: " + name + " copying window " + w));
        inPlaceRuns.forEach(w -> System.out.println("copy price: " + name + " in-place window " + w));
        Price price = new Price(Window.sum(copyingRuns), Window.sum(inPlaceRuns));
        System.out.printf(
                "copy price (2.6.4, G1 %s, agent defaults): %s, %d scans x %d cells per filter; copying %.0f MiB/s:"
                        + " share %.1f%% of %.0f MiB allocated, %.0f young collections -> estimate %.1f;"
                        + " measured %.0f - %.0f = %.0f (%.1f vs %.1f a minute of copying); estimate/measured %.3f%n",
                YOUNG,
                name,
                PAIRS * scans,
                Workload.ROWS,
                price.copying.copyBytes / price.copying.seconds / (1 << 20),
                100 * price.share(),
                price.copying.allocatedBytes / (1 << 20),
                price.copying.youngCollections,
                price.estimate(),
                price.copying.youngCollections,
                price.inPlace.youngCollections,
                price.measured(),
                price.estimate() * 60 / price.copying.seconds,
                price.measured() * 60 / price.copying.seconds,
                price.estimate() / price.measured());
        return price;
    }

    private Window run(Filter filter, int scans, int rows) throws IOException, InterruptedException {
        Scrape before = Scrape.of(server.metricsUri());
        long start = System.nanoTime();
        for (int i = 0; i < scans; i++) {
            assertEquals(rows, rows(filter).size());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(SETTLE_MILLIS);
        Scrape after = Scrape.of(server.metricsUri());
        return new Window(
                after.sum(COPIES) - before.sum(COPIES),
                after.count(ALLOCATED) - before.count(ALLOCATED),
                after.count(COLLECTIONS, "gc", "G1New") - before.count(COLLECTIONS, "gc", "G1New"),
                after.sum(BY_DESIGN) - before.sum(BY_DESIGN),
                seconds);
    }

    private List<String> rows(Filter filter) throws IOException {
        List<String> rows = new ArrayList<>();
        try (ResultScanner scanner = table.getScanner(new Scan().setCaching(500).setFilter(filter))) {
            for (Result result : scanner) {
                rows.add(Bytes.toString(result.getRow()));
            }
        }
        return rows;
    }

    /** Copies each value: BinaryComponentComparator has no in-place compareTo(ByteBuffer, ...). */
    private static Filter copying() {
        return new ValueFilter(CompareOperator.EQUAL, new BinaryComponentComparator(PREFIX, 0));
    }

    /** The same cells in place: BinaryPrefixComparator compares the ByteBuffer it is given. */
    private static Filter inPlace() {
        return new ValueFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(PREFIX));
    }

    /** The copying windows against the in-place ones. */
    record Price(Window copying, Window inPlace) {

        /** The copies' share of the copying windows' heap allocation. */
        double share() {
            return copying.copyBytes / copying.allocatedBytes;
        }

        /** The young collections that share stands for: what the dashboards and the live page show. */
        double estimate() {
            return share() * copying.youngCollections;
        }

        /** The young collections the copying filter added. */
        double measured() {
            return copying.youngCollections - inPlace.youngCollections;
        }
    }

    /** What one window of scans moved: copy bytes, allocation, young collections, and its duration. */
    record Window(
            double copyBytes, double allocatedBytes, double youngCollections, double byDesignBytes, double seconds) {

        static Window sum(List<Window> windows) {
            return new Window(
                    windows.stream().mapToDouble(Window::copyBytes).sum(),
                    windows.stream().mapToDouble(Window::allocatedBytes).sum(),
                    windows.stream().mapToDouble(Window::youngCollections).sum(),
                    windows.stream().mapToDouble(Window::byDesignBytes).sum(),
                    windows.stream().mapToDouble(Window::seconds).sum());
        }

        @Override
        public String toString() {
            return String.format(
                    "%.0f B copied (%.0f B by design), %.0f MiB allocated, %.0f young collections, %.1f s",
                    copyBytes, byDesignBytes, allocatedBytes / (1 << 20), youngCollections, seconds);
        }
    }
}
