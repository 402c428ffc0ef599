package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.hbasers.CopiesMeasured.Read;
import io.blockscope.hbasers.FindingsPage.Alternative;
import io.blockscope.hbasers.FindingsPage.Finding;
import io.blockscope.hbasers.FindingsPage.Point;
import io.blockscope.hbasers.server.InPlaceBigDecimalColumnInterpreter;
import io.blockscope.hbasers.server.InPlaceBinaryComponentComparator;
import io.blockscope.hbasers.server.InPlaceFuzzyRowFilter;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Copies HBase's own filters and comparators make where nothing requires them, each measured as a
 * law on one real RegionServer (offheap BucketCache, blocks cached, agent at {@code copy.sample=1}):
 * the same read at two or more parameter values (prefixes, ranges, fuzzy keys, value sizes), the
 * bytes the agent counted asserted equal to what the release's source predicts at each value, all
 * at the site the agent names. Where HBase has a zero-copy way to the same cells, it runs on the
 * same data and must return the same cells with no copy; where the copy sits in a part a user can
 * replace (a comparator, a filter, a column interpreter), so does the smallest fix, as test code on
 * the RegionServer's class path (io.blockscope.hbasers.server). The run writes docs/hbase-findings.md
 * ({@link FindingsPage}) and fails when the committed page differs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerFindingsTest {

    private static final String FILTER = "org.apache.hadoop.hbase.filter.";
    private static final String UPSTREAM = "none found (HBase's JIRA as public issue threads, and HBase's git history"
            + " to branch-2 and master, searched 2026-11-29)";

    /** Rows of the row and value tables: Workload's 10-byte keys, one cell each. */
    static final int ROWS = 1000;

    static final int ROW_BYTES = Workload.row(0).length;
    static final int SMALL_VALUE = 100;
    static final int BIG_VALUE_ROWS = 250;
    static final int BIG_VALUE = Workload.VALUE_BYTES;
    /** Rows of the columns table, each with these qualifiers. */
    static final int COLUMN_ROWS = 300;

    static final List<byte[]> QUALIFIERS =
            List.of(Bytes.toBytes("qa-col"), Bytes.toBytes("qb-col"), Bytes.toBytes("qc-col"));
    /** Rows per fuzzy section: {@code k<K>-<5 digits>-<i mod K>}, as long as Workload's rows. */
    static final int FUZZY_ROWS = 200;

    /** Rows of each decimals table (one value read per row by GetSum). */
    static final int DECIMAL_ROWS = 300;
    /** Unscaled bases of the decimals tables: 3 and 42 unscaled bytes, 4 of scale. */
    static final BigInteger SMALL_DECIMALS = BigInteger.valueOf(1_000_000);

    static final BigInteger LARGE_DECIMALS = BigInteger.TEN.pow(100);

    /** Rows of the versions tables, one column each written at 1 to {@link #MAX_VERSIONS} timestamps. */
    static final int VERSION_ROWS = 200;

    static final int MAX_VERSIONS = 3;
    static final byte[] VERSIONED_QUALIFIER = Bytes.toBytes("versioned-col");
    /** Rows appended to per value size: each Append reads its row's cached cell once. */
    static final int APPEND_ROWS = 100;

    static final int[] APPEND_VALUES = {100, 1000};

    private final String release = System.getProperty("blockscope.hbase.version");
    /**
     * The release of hbase-endpoint (AggregateImplementation) put on the RegionServer's class path:
     * 2.6.4's is not served to this build. The interpreter measured is 2.6.4's own (hbase-client).
     */
    private final String endpointRelease = System.getProperty("blockscope.hbase.endpoint.release");

    /** The RegionServer measured: 2.6.4, with 2.6.1's hbase-endpoint (2.6.4's is not served here). */
    RegionServerProcess.Builder release() throws Exception {
        String endpointJar = Arrays.stream(ReleaseClassPath.of(endpointRelease).split(File.pathSeparator))
                .filter(jar -> jar.contains("hbase-endpoint-"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(endpointRelease + ": no hbase-endpoint on its class path"));
        return RegionServerProcess.builder()
                .hbaseClassPath(
                        RegionServerProcess.required("blockscope.rs.classpath") + File.pathSeparator + endpointJar);
    }

    /**
     * Whether the release's AggregateImplementation copies each row it reads: 2.6.1's (loaded with
     * 2.6.4) takes {@code getRowArray()} of each row's last cell for its partial results; 2.4's and
     * 2.5's keep no partial results and copy none.
     */
    boolean endpointCopiesRows() {
        return true;
    }

    private RegionServerProcess server;
    private Connection connection;
    private URI metrics;
    private Table rows;
    private Table bigValues;
    private Table columns;
    private Table fuzzy;
    private Table newVersions;
    private Table oldVersions;
    private Table appends;
    private FeatureTable smallDecimals;
    private FeatureTable largeDecimals;
    private final List<Finding> findings = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        server = release().agent("copy.sample=1,copy.jfr=false,sites=100").start();
        metrics = server.metricsUri();
        connection = ConnectionFactory.createConnection(server.clientConfiguration());
        rows = load("findings_rows", ROWS, Workload::row, i -> List.of(Workload.QUALIFIER), i -> value(i, SMALL_VALUE));
        bigValues = load(
                "findings_values", BIG_VALUE_ROWS, Workload::row, i -> List.of(Workload.QUALIFIER), Workload::value);
        columns = load("findings_columns", COLUMN_ROWS, Workload::row, i -> QUALIFIERS, i -> Bytes.toBytes(i));
        List<byte[]> fuzzyRows = new ArrayList<>();
        for (int k : new int[] {1, 2, 4}) {
            for (int i = 0; i < FUZZY_ROWS; i++) {
                fuzzyRows.add(fuzzyRow(k, i));
            }
        }
        fuzzy = load(
                "findings_fuzzy", fuzzyRows.size(), fuzzyRows::get, i -> List.of(Workload.QUALIFIER), Bytes::toBytes);
        newVersions = versions("findings_new_versions", true);
        oldVersions = versions("findings_versions", false);
        appends = load(
                "findings_appends",
                APPEND_ROWS * APPEND_VALUES.length,
                Workload::row,
                i -> List.of(Workload.QUALIFIER),
                i -> value(i, APPEND_VALUES[i / APPEND_ROWS]));
        smallDecimals = decimals("findings_decimals_small", SMALL_DECIMALS);
        largeDecimals = decimals("findings_decimals_large", LARGE_DECIMALS);
        // once more, after the BucketCache's writers have had the time to move every block offheap
        for (Table t : new Table[] {
            rows, bigValues, columns, fuzzy, newVersions, oldVersions, appends, smallDecimals.table, largeDecimals.table
        }) {
            scan(t, new Scan());
        }
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {
            rows,
            bigValues,
            columns,
            fuzzy,
            newVersions,
            oldVersions,
            appends,
            smallDecimals,
            largeDecimals,
            connection,
            server
        }) {
            if (c != null) {
                c.close();
            }
        }
    }

    /**
     * MultipleColumnPrefixFilter.filterColumn clones each qualifier it is handed to look it up in a
     * TreeSet of the prefixes: the qualifier's length per cell, whatever the number of prefixes.
     */
    @Test
    @Order(1)
    void multipleColumnPrefixFilterCopiesEachQualifierWhateverThePrefixes() throws IOException {
        Finding f = new Finding("multiple-column-prefix-filter", "MultipleColumnPrefixFilter copies every qualifier");
        f.verdict = "confirmed";
        f.parameter = "prefixes";
        f.unit = "cell";
        f.decidedIn = "`MultipleColumnPrefixFilter.filterColumn` clones the qualifier of each cell it is handed"
                + " (`CellUtil.cloneQualifier`) to look it up in a `TreeSet<byte[]>` of the prefixes.";
        f.law = "the qualifier's length (" + QUALIFIERS.get(0).length + " B here) per cell the filter is handed,"
                + " the same for 1 or 3 prefixes; a cell the filter skips with a seek hint or NEXT_ROW is copied too.";
        int cells = COLUMN_ROWS * QUALIFIERS.size();
        long perCell = QUALIFIERS.get(0).length;
        String site = FILTER + "MultipleColumnPrefixFilter.filterColumn:";
        CopiesMeasured one = point(
                f,
                "1 prefix (`q`)",
                columns,
                new Scan().setFilter(prefixes("q")),
                cells,
                cells * perCell,
                "qualifier",
                site);
        CopiesMeasured three = point(
                f,
                "3 prefixes (`qa`, `qb`, `qc`)",
                columns,
                new Scan().setFilter(prefixes("qa", "qb", "qc")),
                cells,
                cells * perCell,
                "qualifier",
                site);
        CopiesMeasured middle = point(
                f,
                "1 prefix (`qb`), 2 columns skipped",
                columns,
                new Scan().setFilter(prefixes("qb")),
                cells,
                cells * perCell,
                "qualifier",
                site);
        assertEquals(cells, one.cells().size(), "every column starts with q");
        assertEquals(one.cells(), three.cells(), "three prefixes that cover every column return the same cells");
        assertEquals(COLUMN_ROWS, middle.cells().size(), "one column per row starts with qb");
        FilterList or = new FilterList(
                FilterList.Operator.MUST_PASS_ONE,
                new ColumnPrefixFilter(Bytes.toBytes("qa")),
                new ColumnPrefixFilter(Bytes.toBytes("qb")),
                new ColumnPrefixFilter(Bytes.toBytes("qc")));
        alternative(
                f,
                "FilterList (OR) of ColumnPrefixFilters",
                "the 3 prefixes",
                columns,
                new Scan().setFilter(or),
                three);
        f.elsewhere = "the same lines are unchanged on HBase's branch-2 and master (their heads of 2026-08-19, read"
                + " 2026-11-29). There, and in 2.5.16, HBASE-30150 (2026-05-16) adds `getSkipHint`, which clones the"
                + " qualifier of each cell the scan skips by its time range, columns or versions too"
                + " (`MultipleColumnPrefixFilter.java:181` on master; read, not measured: releases after 2.5.11 and"
                + " 2.6.4 do not resolve here).";
        f.operator = "use a `FilterList` with `MUST_PASS_ONE` of one `ColumnPrefixFilter` per prefix (it compares"
                + " the qualifier in place), or name the columns on the Scan when they are known.";
        f.upstream = UPSTREAM;
        f.reportTitle = "MultipleColumnPrefixFilter copies the qualifier of every cell from offheap blocks";
        f.change = "compare the cell's qualifier in place against the sorted prefixes (a binary search over the"
                + " prefix array with `PrivateCellUtil.qualifierStartsWith` / `CellUtil.compareQualifiers`, as"
                + " `ColumnPrefixFilter` does for one prefix) instead of cloning it as a `TreeSet` key; the seek hint"
                + " needs only the chosen prefix, which is already a `byte[]`.";
        findings.add(f);
    }

    /**
     * MultiRowRangeFilter.filterRowKey takes getRowArray() of each row (a copy on an offheap cell)
     * and clones the row again when it is outside the current range.
     */
    @Test
    @Order(2)
    void multiRowRangeFilterCopiesEveryRowAndTwiceAtEachRangeEnd() throws IOException {
        Finding f = new Finding("multi-row-range-filter", "MultiRowRangeFilter copies every row it reads");
        f.verdict = "confirmed";
        f.parameter = "ranges of 50 rows";
        f.unit = "row";
        f.decidedIn = "`MultiRowRangeFilter.filterRowKey` takes `getRowArray()` of the first cell of each row (on"
                + " an offheap cell, a new array) to test the current range, and `CellUtil.cloneRow` when the row is"
                + " outside it, to find the next range.";
        f.law = "the row's length (" + ROW_BYTES + " B here) per row the scan reads, plus a second copy at the first"
                + " row and at the row that ends each range: `row × (rows in ranges + 2 + 2 × ranges)`.";
        int width = 50;
        String site = FILTER + "MultiRowRangeFilter.filterRowKey:";
        CopiesMeasured last = null;
        for (int ranges : new int[] {1, 2, 4}) {
            List<MultiRowRangeFilter.RowRange> list = new ArrayList<>();
            for (int r = 0; r < ranges; r++) {
                list.add(new MultiRowRangeFilter.RowRange(
                        Workload.row(100 + 200 * r), true, Workload.row(100 + 200 * r + width), false));
            }
            long predicted = (long) ROW_BYTES * (ranges * width + 2 + 2 * ranges);
            last = point(
                    f,
                    ranges + (ranges == 1 ? " range" : " ranges"),
                    rows,
                    new Scan().setFilter(new MultiRowRangeFilter(list)),
                    ranges * width,
                    predicted,
                    "row",
                    site);
            assertEquals(ranges * width, last.cells().size(), "the rows in the ranges");
            // getRowArray() for every row read (those in the ranges, the first, the one after each range);
            // cloneRow for the first and the one after each range
            long clones = (long) ROW_BYTES * (1 + ranges);
            assertEquals(
                    List.of(clones, predicted - clones),
                    last.sites().values().stream().sorted().toList(),
                    "the two copies of filterRowKey " + last.sites());
        }
        int ranges = 4;
        alternative(
                f,
                Way.ZERO_COPY,
                "one Scan per range with start and stop rows",
                "the 4 ranges",
                () -> {
                    List<String> cells = new ArrayList<>();
                    for (int r = 0; r < ranges; r++) {
                        cells.addAll(scan(
                                rows,
                                new Scan()
                                        .withStartRow(Workload.row(100 + 200 * r))
                                        .withStopRow(Workload.row(100 + 200 * r + width))));
                    }
                    return cells;
                },
                last,
                0);
        f.operator = "for a few ranges, one Scan per range with start and stop rows (the region compares the stop"
                + " row in place); the copies are the row key's size, so they matter with long keys and many rows.";
        f.upstream = UPSTREAM;
        f.reportTitle = "MultiRowRangeFilter.filterRowKey copies the row key of every row from offheap blocks";
        f.change = "test the current range against the cell in place (`CellComparator.compareRows(Cell, byte[],"
                + " int, int)` against the range's start and stop rows, as `InclusiveStopFilter` does) and find the"
                + " next range with the same comparison, so no `getRowArray()` or `cloneRow` is needed; on 2.x"
                + " `getRowArray()` of a `ByteBufferExtendedCell` always allocates.";
        findings.add(f);
    }

    /**
     * FuzzyRowFilter.filterCell takes getRowArray() inside its loop over the fuzzy keys, so once per
     * key tried; the inherited FilterBase.filterRowKey(Cell) takes it once more per row. The keys
     * tried depend on the order of the rows against the keys (the filter starts at the last match).
     */
    @Test
    @Order(3)
    void fuzzyRowFilterCopiesTheRowOncePerKeyTried() throws IOException {
        Finding f = new Finding("fuzzy-row-filter", "FuzzyRowFilter copies the row once per fuzzy key it tries");
        f.verdict = "confirmed, per key tried (not per key)";
        f.parameter = "fuzzy keys";
        f.unit = "row";
        f.decidedIn = "`FuzzyRowFilter.filterCell` calls `c.getRowArray()` inside its loop over the fuzzy keys (a new"
                + " array per key tried on an offheap cell), starting at the key that matched the previous row; the"
                + " `filterRowKey(Cell)` it inherits from `FilterBase` calls `getRowArray()` once more per row.";
        f.law = "the row's length (" + ROW_BYTES + " B here) × (keys tried + 1) per row: with K keys, K + 1 copies"
                + " per row when consecutive rows match the keys in the order opposite to the list (every key is"
                + " tried), 3 when they match in list order (the previous match, then the next key), 2 with one key.";
        String cellSite = FILTER + "FuzzyRowFilter.filterCell:";
        String rowKeySite = FILTER + "FuzzyRowFilter.filterRowKey";
        CopiesMeasured against = null;
        for (int k : new int[] {1, 2, 4}) {
            long tries = (long) FUZZY_ROWS * k;
            against = fuzzyPoint(
                    f, k + (k == 1 ? " key" : " keys, against the row order"), k, true, tries, cellSite, rowKeySite);
            assertEquals(FUZZY_ROWS, against.cells().size(), "every row of the section matches one key");
        }
        alternative(
                f,
                Way.SMALLEST_FIX,
                "`" + InPlaceFuzzyRowFilter.class.getSimpleName() + "` (a `FuzzyRowFilter` subclass that matches over"
                        + " the row's buffer and does not inherit `FilterBase.filterRowKey(Cell)`)",
                "the 4 keys, against the row order",
                () -> scan(fuzzy, fuzzyScan(4, true, InPlaceFuzzyRowFilter::new)),
                against,
                0);
        // its seek hints (the stock ones) lead to the same rows: from the table's first row, the
        // sections of 1 and 2 keys match none of the 4 keys
        List<String> stockSeeking = scan(fuzzy, new Scan().setFilter(new FuzzyRowFilter(fuzzyKeys(4, true))));
        assertEquals(FUZZY_ROWS, stockSeeking.size(), "the stock filter seeks to the section of 4 keys");
        assertEquals(
                stockSeeking,
                scan(fuzzy, new Scan().setFilter(new InPlaceFuzzyRowFilter(fuzzyKeys(4, true)))),
                "the in-place filter returns the stock filter's cells where it seeks");
        // in list order: the first row matches the first key, each next row the key after the previous match
        CopiesMeasured inOrder =
                fuzzyPoint(f, "4 keys, in the row order", 4, false, 1 + 2L * (FUZZY_ROWS - 1), cellSite, rowKeySite);
        assertEquals(FUZZY_ROWS, inOrder.cells().size());
        f.today = "none in HBase; a subclass that matches in place copies no row (measured)";
        f.operator = "list the fuzzy keys in the order consecutive rows match them (measured above: fewer keys tried"
                + " per row), or put the fixed part first in the key and scan it by prefix (no other stock filter"
                + " matches a fixed byte inside the key in place: `RowFilter` with `RegexStringComparator` copies each"
                + " row too); or deploy on the RegionServers' class path a subclass that matches in place, as"
                + " measured above, with its own static `parseFrom`. It keeps the stock seek hint, which still"
                + " copies the row once per fuzzy key it recomputes at each seek (none at the point measured, where"
                + " every row matches a key). The copies are the row key's size times the keys tried, so they"
                + " matter with long keys and many keys.";
        f.elsewhere = "the loop's copy is unchanged on HBase's branch-2 and master (their heads of 2026-08-19, read"
                + " 2026-11-29); on master `FilterBase.filterRowKey(Cell)` no longer calls `getRowArray()`, so there"
                + " the inherited copy per row is gone.";
        f.upstream = UPSTREAM;
        f.reportTitle = "FuzzyRowFilter copies the row key once per fuzzy key tried, per cell, from offheap blocks";
        f.change = "take the row once per cell outside the loop over the keys, or better match in place: `satisfies`"
                + " and `getNextForFuzzyRule` over the cell's `ByteBuffer` (`getRowByteBuffer()`, `getRowPosition()`)"
                + " when it is a `ByteBufferExtendedCell`, and override `filterRowKey(Cell)` to return `false` (the"
                + " filter decides in `filterCell`, as `MultipleColumnPrefixFilter` already does) so the inherited"
                + " copy goes too.";
        findings.add(f);
    }

    private CopiesMeasured fuzzyPoint(
            Finding f, String parameter, int keys, boolean againstRows, long tries, String cellSite, String rowKeySite)
            throws IOException {
        Scan scan = fuzzyScan(keys, againstRows, FuzzyRowFilter::new);
        long predicted = (long) ROW_BYTES * (tries + FUZZY_ROWS);
        CopiesMeasured m = point(f, parameter, fuzzy, scan, FUZZY_ROWS, predicted, "row", cellSite, rowKeySite);
        assertAll(
                () -> assertEquals(
                        (long) ROW_BYTES * tries, m.at(cellSite), "filterCell: one row per key tried " + m.sites()),
                () -> assertEquals(
                        (long) ROW_BYTES * FUZZY_ROWS, m.at(rowKeySite), "filterRowKey: one row per row " + m.sites()));
        return m;
    }

    /** The section of {@code keys} fuzzy keys, scanned with {@code filter} of {@link #fuzzyKeys}. */
    private static Scan fuzzyScan(
            int keys, boolean againstRows, Function<List<Pair<byte[], byte[]>>, ? extends Filter> filter) {
        return new Scan()
                .withStartRow(Bytes.toBytes("k" + keys + "-"))
                .withStopRow(Bytes.toBytes("k" + keys + "."))
                .setFilter(filter.apply(fuzzyKeys(keys, againstRows)));
    }

    /**
     * {@code keys} fuzzy keys with the 5 digits free: key {@code j} matches the rows {@code i} of the
     * section with {@code i mod keys == j} (in the row order) or {@code keys - 1 - j} (against it).
     */
    static List<Pair<byte[], byte[]>> fuzzyKeys(int keys, boolean againstRows) {
        List<Pair<byte[], byte[]>> list = new ArrayList<>();
        for (int j = 0; j < keys; j++) {
            int matches = againstRows ? keys - 1 - j : j;
            byte[] mask = new byte[ROW_BYTES];
            Arrays.fill(mask, 3, 8, (byte) 1);
            list.add(new Pair<>(fuzzyRow(keys, matches), mask));
        }
        return list;
    }

    /**
     * BinaryComponentComparator does not override ByteArrayComparable.compareTo(ByteBuffer, int, int),
     * whose default copies the whole value to compare a slice of it.
     */
    @Test
    @Order(4)
    void binaryComponentComparatorCopiesTheWholeValueForASlice() throws IOException {
        Finding f = new Finding(
                "binary-component-comparator", "BinaryComponentComparator copies the whole value to compare a slice");
        f.verdict = "confirmed";
        f.parameter = "component, values";
        f.unit = "cell";
        f.decidedIn = "`BinaryComponentComparator` overrides `compareTo(byte[], int, int)` only; on an offheap cell"
                + " `PrivateCellUtil.compareValue` calls `compareTo(ByteBuffer, int, int)`, whose default in"
                + " `ByteArrayComparable` copies the whole value into a new array first.";
        f.law = "the value's length per cell compared, whatever the component's length and offset: it grows with the"
                + " value, not with the slice compared.";
        byte[] component = Arrays.copyOf(Workload.value(7), 4);
        byte[] atTen = Arrays.copyOfRange(Workload.value(7), 10, 14);
        String site = FILTER + "ValueFilter(BinaryComponentComparator).filterCell:";
        CopiesMeasured small = point(
                f,
                "4 B at offset 0, " + SMALL_VALUE + " B values",
                rows,
                valueScan(component, 0),
                ROWS,
                (long) ROWS * SMALL_VALUE,
                "value",
                site);
        CopiesMeasured offset = point(
                f,
                "4 B at offset 10, " + SMALL_VALUE + " B values",
                rows,
                valueScan(atTen, 10),
                ROWS,
                (long) ROWS * SMALL_VALUE,
                "value",
                site);
        CopiesMeasured big = point(
                f,
                String.format("4 B at offset 0, %,d B values", BIG_VALUE),
                bigValues,
                valueScan(component, 0),
                BIG_VALUE_ROWS,
                (long) BIG_VALUE_ROWS * BIG_VALUE,
                "value",
                site);
        assertTrue(!small.cells().isEmpty() && !big.cells().isEmpty(), "some values carry the component");
        assertEquals(small.cells(), offset.cells(), "the same rows carry value(7)'s bytes at 0 and at 10");
        alternative(
                f,
                "ValueFilter + BinaryPrefixComparator",
                "the component at offset 0",
                rows,
                new Scan().setFilter(new ValueFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(component))),
                small);
        alternative(
                f,
                Way.SMALLEST_FIX,
                "`" + InPlaceBinaryComponentComparator.class.getSimpleName() + "` (a `BinaryComponentComparator`"
                        + " subclass whose `compareTo(ByteBuffer, int, int)` compares the slice in place)",
                "the component at offset 10",
                () -> scan(
                        rows,
                        new Scan()
                                .setFilter(new ValueFilter(
                                        CompareOperator.EQUAL, new InPlaceBinaryComponentComparator(atTen, 10)))),
                offset,
                0);
        f.operator = "for a component at offset 0, `BinaryPrefixComparator` gives the same cells in place; at another"
                + " offset, a `BinaryComponentComparator` subclass that overrides `compareTo(ByteBuffer, int, int)`"
                + " with `ByteBufferUtils.compareTo` over the slice and has its own static `parseFrom` (HBase builds"
                + " the comparator the request names by calling it), deployed on the RegionServers' class path:"
                + " measured above at offset 10, the same cells and no copy.";
        f.upstream = UPSTREAM;
        f.reportTitle = "BinaryComponentComparator copies the whole offheap value to compare a fixed slice";
        f.change = "override `compareTo(ByteBuffer value, int offset, int length)` to compare the component against"
                + " `value` at `offset + this.offset` with `ByteBufferUtils.compareTo` (as `BinaryComparator` and"
                + " `BinaryPrefixComparator` do), so no byte of the value is copied.";
        findings.add(f);
    }

    /**
     * BigDecimalColumnInterpreter.getValue clones the whole value in a null check whose answer is
     * always "not null" (cloneValue never returns null), then reads the value again for the BigDecimal
     * (ByteBufferUtils.toBigDecimal copies the unscaled bytes, length - 4): per value an aggregate
     * reads, length + (length - 4) bytes, of which the first length are thrown away.
     */
    @Test
    @Order(5)
    void bigDecimalColumnInterpreterClonesEachValueForANullCheck() throws IOException {
        Finding f = new Finding(
                "big-decimal-column-interpreter",
                "BigDecimalColumnInterpreter clones every value for a null check it cannot fail");
        f.verdict = "confirmed";
        f.parameter = "values summed (GetSum)";
        f.unit = "value read";
        f.returned = "answers (GetSum)";
        f.decidedIn = "`BigDecimalColumnInterpreter.getValue` tests `CellUtil.cloneValue(kv) == null`: a copy of the"
                + " whole value, which is never null, thrown away; then `PrivateCellUtil.getValueAsBigDecimal`"
                + " (`ByteBufferUtils.toBigDecimal`) copies the unscaled bytes (the value less its 4 scale bytes) for"
                + " the `BigInteger`. Run through `AggregateImplementation` (hbase-endpoint " + endpointRelease
                + ", whose 2.6.4 build is not served here; its own copies, a row key per row read, are counted at"
                + " its own site and left out of the table).";
        f.law = "2 × the value's length − 4 per value an aggregate reads (sum, max, min, avg, std and median each"
                + " read every value once); the first copy, the value's whole length, is thrown away.";
        String interpreter = "org.apache.hadoop.hbase.client.coprocessor.BigDecimalColumnInterpreter";
        String interpreterSite = interpreter + ".getValue:";
        String endpointSite = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation.";
        String variant = InPlaceBigDecimalColumnInterpreter.class.getName();
        CopiesMeasured last = null;
        CopiesMeasured lastInPlace = null;
        for (BigInteger base : List.of(SMALL_DECIMALS, LARGE_DECIMALS)) {
            FeatureTable table = base == SMALL_DECIMALS ? smallDecimals : largeDecimals;
            int length = decimalLength(base);
            long clone = (long) DECIMAL_ROWS * length;
            long unscaled = (long) DECIMAL_ROWS * (length - Bytes.SIZEOF_INT);
            long endpointRows = endpointCopiesRows() ? (long) DECIMAL_ROWS * ROW_BYTES : 0;
            String parameter = DECIMAL_ROWS + " values of " + length + " B";
            CopiesMeasured stock = measure(() -> sum(table, interpreter));
            CopiesMeasured inPlace = measure(() -> sum(table, variant));
            System.out.printf(
                    "%s, %s: stock %s %s; in place %s %s%n",
                    f.title, parameter, stock.components(), stock.sites(), inPlace.components(), inPlace.sites());
            assertAll(
                    () -> assertEquals(
                            clone + unscaled + endpointRows, stock.total(), "stock: all copies " + stock.sites()),
                    () -> assertEquals(
                            List.of(unscaled, clone),
                            stock.sites().entrySet().stream()
                                    .filter(e -> e.getKey().startsWith(interpreterSite))
                                    .map(Map.Entry::getValue)
                                    .sorted()
                                    .toList(),
                            "the interpreter's two copies: the clone, then the unscaled bytes " + stock.sites()),
                    () -> assertEquals(
                            endpointRows, stock.at(endpointSite), "the endpoint's row keys " + stock.sites()),
                    () -> assertEquals(stock.cells(), inPlace.cells(), "the in-place interpreter answers the same"),
                    () -> assertEquals(unscaled, inPlace.at(variant + ".getValue:"), "in place: the unscaled bytes"),
                    () -> assertEquals(
                            unscaled + endpointRows, inPlace.total(), "in place: nothing else " + inPlace.sites()));
            named(
                    f,
                    stock.sites().keySet().stream()
                            .filter(s -> s.startsWith(interpreterSite))
                            .toList());
            f.points.add(new Point(
                    parameter,
                    DECIMAL_ROWS,
                    stock.at(interpreterSite),
                    clone + unscaled,
                    stock.cells().size()));
            last = stock;
            lastInPlace = inPlace;
        }
        f.alternatives.add(new Alternative(
                "The smallest fix, measured (test code)",
                "`" + InPlaceBigDecimalColumnInterpreter.class.getSimpleName()
                        + "` (`getValue` without the clone, as a `BigDecimalColumnInterpreter` subclass)",
                "the " + decimalLength(LARGE_DECIMALS) + " B values",
                last.cells().size(),
                "answers",
                last.cells().equals(lastInPlace.cells()),
                lastInPlace.at(variant + ".getValue:")));
        f.today = "none in HBase; the clone is a one-line fix";
        f.operator = "for integral values, `LongColumnInterpreter` on 8-byte longs reads in place; otherwise a"
                + " subclass of `BigDecimalColumnInterpreter` whose `getValue` drops the `cloneValue` test (as"
                + " measured above), deployed on the RegionServers' class path and named in the request, saves the"
                + " value's whole length per value read.";
        f.upstream = UPSTREAM;
        f.reportTitle = "BigDecimalColumnInterpreter.getValue clones every value for a null check that cannot fail";
        f.change = "drop `CellUtil.cloneValue(kv) == null` from the test in `getValue` (`cloneValue` never returns"
                + " null; a cell with an empty value still gives a zero-length array): `if (kv == null) return null;`."
                + " The unscaled bytes `ByteBufferUtils.toBigDecimal` copies are what `BigInteger` needs.";
        findings.add(f);
    }

    /**
     * NewVersionBehaviorTracker.prepare keeps the column it last saw as {@code getQualifierArray()},
     * which on an offheap cell is a new array: taken for every cell, also when the column is the one
     * it already holds (every version after a column's first).
     */
    @Test
    @Order(6)
    void newVersionBehaviorTrackerCopiesTheQualifierOfEveryVersion() throws IOException {
        Finding f = new Finding(
                "new-version-behavior-tracker", "NEW_VERSION_BEHAVIOR copies the qualifier of every version read");
        f.verdict = "confirmed";
        f.parameter = "versions read per column";
        f.unit = "cell";
        f.decidedIn = "`NewVersionBehaviorTracker.prepare`, called from `isDeleted` for every put cell of a family"
                + " with `NEW_VERSION_BEHAVIOR`, sets `lastCqArray = cell.getQualifierArray()` (a new array on an"
                + " offheap cell) whether or not `isColumnQualifierChanged` found a new column.";
        f.law = "the qualifier's length (" + VERSIONED_QUALIFIER.length + " B here) per cell the scan reads, so"
                + " per version when a scan reads several versions of one column; the same column's qualifier"
                + " is copied again for each of its versions.";
        int cellsPerVersion = VERSION_ROWS;
        String site = "org.apache.hadoop.hbase.regionserver.RSRpcServices.scan:";
        CopiesMeasured last = null;
        for (int versions = 1; versions <= MAX_VERSIONS; versions += MAX_VERSIONS - 1) {
            long cells = (long) cellsPerVersion * versions;
            last = point(
                    f,
                    versions + (versions == 1 ? " version" : " versions"),
                    newVersions,
                    new Scan().readVersions(versions),
                    cells,
                    cells * VERSIONED_QUALIFIER.length,
                    "qualifier",
                    site);
            assertEquals(cells, last.cells().size(), "each row's column at " + versions + " versions");
        }
        alternative(
                f,
                "a family without NEW_VERSION_BEHAVIOR",
                "the scan of " + MAX_VERSIONS + " versions",
                oldVersions,
                new Scan().readVersions(MAX_VERSIONS),
                last);
        f.today = "a family without `NEW_VERSION_BEHAVIOR` (its trackers keep the column in place and copy it at"
                + " `beforeShipped`)";
        f.operator = "keep `NEW_VERSION_BEHAVIOR` off unless its delete semantics are needed; with it on, read one"
                + " version where the application allows (the tracker then seeks past the others, measured above)."
                + " The copies are the qualifier's size per cell read, so they matter with long qualifiers.";
        f.upstream = UPSTREAM;
        f.reportTitle = "NewVersionBehaviorTracker copies the qualifier of every cell it reads from offheap blocks";
        f.change = "keep the previous column only when it changes: move the `lastCqArray`/`lastCqOffset`/"
                + "`lastCqLength` assignment into the `isColumnQualifierChanged` branch, and have it hold the cell"
                + " (compared in place with `CellUtil.matchingQualifier(Cell, Cell)`) until `beforeShipped`, which"
                + " today does nothing and would then copy the column once per shipped batch, as the other"
                + " trackers do.";
        findings.add(f);
    }

    /**
     * Append builds its new value from the current cell's getValueArray() (a new array on an offheap
     * cell) copied into another new array: the old value is copied twice, once for nothing.
     */
    @Test
    @Order(7)
    void appendCopiesTheOldValueIntoATemporaryArray() throws IOException {
        Finding f = new Finding("append", "Append copies the old value into an array it throws away");
        f.verdict = "confirmed";
        f.parameter = "old value";
        f.unit = "append";
        f.returned = "results returned";
        f.decidedIn = "`HRegion`'s `reckonDeltasByStore` builds an Append's new value as `ByteBuffer.wrap(new"
                + " byte[...]).put(oldCell.getValueArray(), ...)`: `getValueArray()` on an offheap cell is a new"
                + " array of the whole old value, which `put` copies again into the new value and then drops.";
        f.law = "the old value's length per Append whose row's current cell is read from an offheap block (then"
                + " again for the new array, on the heap, where the agent does not count it): it grows with the"
                + " value, whatever the length appended.";
        String site = "org.apache.hadoop.hbase.regionserver.RSRpcServices.append:";
        for (int v = 0; v < APPEND_VALUES.length; v++) {
            int first = v * APPEND_ROWS;
            int length = APPEND_VALUES[v];
            CopiesMeasured m = point(
                    f,
                    String.format("%,d B", length),
                    () -> append(first, APPEND_ROWS),
                    APPEND_ROWS,
                    (long) APPEND_ROWS * length,
                    "value",
                    site);
            assertEquals(APPEND_ROWS, m.cells().size(), "one result per Append");
            assertTrue(
                    m.cells().stream().allMatch(c -> c.endsWith("/" + (length + 1))),
                    "each new value is the old one and the byte appended "
                            + m.cells().subList(0, 3));
        }
        f.today = "none in HBase";
        f.noAlternative = "none in HBase for appending bytes (`Increment` reads its long in place,"
                + " `PrivateCellUtil.getValueAsLong`); a Put of the new value avoids the read where the client"
                + " already has it.";
        f.operator = "the copy is one value per Append of a cached cell: it matters for large values appended"
                + " often; a client that knows the new value can Put it instead.";
        f.upstream = UPSTREAM;
        f.reportTitle = "Append copies the old value from an offheap block into a temporary array";
        f.change = "build the new value with `PrivateCellUtil.copyValueTo(oldCell, newValue, 0)` (which copies an"
                + " offheap value straight from its buffer) and then the delta, instead of `put(oldCell.getValueArray()"
                + ", ...)`, so the old value is copied once, into the array that is kept.";
        findings.add(f);
    }

    @Test
    @Order(99)
    void theFindingsPageIsTheOneThisRunProduced() throws IOException {
        assertEquals(7, findings.size(), "every finding measured");
        check(findings);
    }

    /** Writes or compares docs/hbase-findings.md, this release's page. */
    void check(List<Finding> measured) throws IOException {
        new FindingsPage(FindingsPage.Source.CORE, release, measured).check(RegionServerFeaturesTest.repository());
    }

    // --- measuring

    private CopiesMeasured measure(Read read) throws IOException {
        return CopiesMeasured.of(metrics, read);
    }

    /**
     * Runs {@code scan} on {@code table}, asserts that HBase copied exactly {@code predicted} bytes of
     * {@code component}, nothing else, all at the sites, and adds the point (and the sites) to {@code f}.
     */
    private CopiesMeasured point(
            Finding f,
            String parameter,
            Table table,
            Scan scan,
            long units,
            long predicted,
            String component,
            String... sites)
            throws IOException {
        return point(f, parameter, () -> scan(table, scan), units, predicted, component, sites);
    }

    /** {@link #point(Finding, String, Table, Scan, long, long, String, String...)} for any read. */
    private CopiesMeasured point(
            Finding f, String parameter, Read read, long units, long predicted, String component, String... sites)
            throws IOException {
        CopiesMeasured m = measure(read);
        System.out.printf(
                "%s, %s: %d cells returned, %d units, counted %s (total %d), predicted %d, sites %s%n",
                f.title, parameter, m.cells().size(), units, m.components(), m.total(), predicted, m.sites());
        String on = f.title + ", " + parameter;
        assertAll(
                () -> assertEquals(predicted, m.components().get(component), on + ": " + component + " bytes"),
                () -> assertEquals(predicted, m.total(), on + ": no other copy " + m.components() + " " + m.sites()),
                () -> assertEquals(
                        predicted, m.at(sites), on + ": every byte at " + Arrays.toString(sites) + ": " + m.sites()));
        named(f, m.sites().keySet());
        f.points.add(new Point(parameter, units, m.total(), predicted, m.cells().size()));
        return m;
    }

    /** Adds {@code sites} to the sites {@code f} names, sorted. */
    private static void named(Finding f, java.util.Collection<String> sites) {
        TreeSet<String> named = new TreeSet<>(f.sites.isEmpty() ? List.of() : List.of(f.sites.split(", ")));
        named.addAll(sites);
        f.sites = String.join(", ", named);
    }

    /** What an alternative is: HBase's own zero-copy way (the finding's "today"), or the smallest fix as test code. */
    private enum Way {
        ZERO_COPY("Zero-copy alternative, measured"),
        SMALLEST_FIX("The smallest fix, measured (test code)");

        final String kind;

        Way(String kind) {
            this.kind = kind;
        }
    }

    /** {@link #alternative(Finding, Way, String, String, Read, CopiesMeasured, long)}: a stock scan, no copy. */
    private void alternative(
            Finding f, String name, String comparedWith, Table table, Scan scan, CopiesMeasured copying)
            throws IOException {
        alternative(f, Way.ZERO_COPY, name, comparedWith, () -> scan(table, scan), copying, 0);
    }

    /**
     * Runs another way ({@code read}) on the data {@code copying} read: it must return the same cells
     * and copy exactly {@code bytes}.
     */
    private void alternative(
            Finding f, Way way, String name, String comparedWith, Read read, CopiesMeasured copying, long bytes)
            throws IOException {
        CopiesMeasured m = measure(read);
        System.out.printf(
                "%s, %s: %s: %d cells, counted %s, sites %s%n",
                f.title, way.kind, name, m.cells().size(), m.components(), m.sites());
        assertAll(
                () -> assertEquals(copying.cells(), m.cells(), name + ": the same cells as " + comparedWith),
                () -> assertEquals(bytes, m.total(), name + ": bytes copied " + m.sites()));
        f.alternatives.add(new Alternative(
                way.kind,
                name,
                comparedWith,
                m.cells().size(),
                "cells",
                copying.cells().equals(m.cells()),
                m.total()));
        if (way == Way.ZERO_COPY) {
            f.today = name;
        }
    }

    // --- data

    /** GetSum over {@code table}'s values with {@code interpreter}, on the RegionServer; the answer's parts. */
    private static List<String> sum(FeatureTable table, String interpreter) throws IOException {
        return AggregateEndpoint.call(
                        table.table,
                        Workload.row(0),
                        "GetSum",
                        interpreter,
                        new Scan().addColumn(Workload.FAMILY, Workload.QUALIFIER))
                .stream()
                .map(part -> Bytes.toHex(part.toByteArray()))
                .toList();
    }

    /** A table of {@link #DECIMAL_ROWS} BigDecimals {@code (base + row) / 100}, with the aggregation endpoint. */
    private FeatureTable decimals(String name, BigInteger base) {
        return FeatureTable.create(
                connection,
                name,
                DECIMAL_ROWS,
                1,
                i -> decimal(base, i),
                family -> family,
                table -> {
                    try {
                        return table.setCoprocessor(AggregateEndpoint.IMPLEMENTATION);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                put -> put);
    }

    static byte[] decimal(BigInteger base, int row) {
        return Bytes.toBytes(new BigDecimal(base.add(BigInteger.valueOf(row)), 2));
    }

    /** The length of every value of the decimals table from {@code base}: the same for each of its rows. */
    private static int decimalLength(BigInteger base) {
        int length = decimal(base, 0).length;
        for (int i = 1; i < DECIMAL_ROWS; i++) {
            assertEquals(length, decimal(base, i).length, "row " + i + " of " + base);
        }
        return length;
    }

    private static MultipleColumnPrefixFilter prefixes(String... prefixes) {
        return new MultipleColumnPrefixFilter(
                Arrays.stream(prefixes).map(Bytes::toBytes).toArray(byte[][]::new));
    }

    private static Scan valueScan(byte[] component, int offset) {
        Filter filter = new ValueFilter(CompareOperator.EQUAL, new BinaryComponentComparator(component, offset));
        return new Scan().setFilter(filter);
    }

    static byte[] value(int i, int length) {
        return Arrays.copyOf(Workload.value(i), length);
    }

    /** Row {@code i} of the section for {@code keys} fuzzy keys: {@code k<keys>-<i>-<i mod keys>}. */
    static byte[] fuzzyRow(int keys, int i) {
        return Bytes.toBytes(String.format("k%d-%05d-%d", keys, i, i % keys));
    }

    /** Each cell {@code scan} returns, as row/qualifier. */
    private static List<String> scan(Table table, Scan scan) throws IOException {
        List<String> cells = new ArrayList<>();
        try (ResultScanner scanner = table.getScanner(scan.setCaching(500))) {
            for (Result result : scanner) {
                for (var cell : result.rawCells()) {
                    cells.add(Bytes.toStringBinary(result.getRow()) + "/"
                            + Bytes.toStringBinary(
                                    cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength()));
                }
            }
        }
        return cells;
    }

    /** Appends one byte to rows {@code first} to {@code first + count - 1}; each new value as row/length. */
    private List<String> append(int first, int count) throws IOException {
        List<String> results = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            Result r = appends.append(new Append(Workload.row(i))
                    .addColumn(Workload.FAMILY, Workload.QUALIFIER, new byte[] {(byte) '+'}));
            results.add(
                    Bytes.toStringBinary(r.getRow()) + "/" + r.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
        }
        return results;
    }

    /**
     * A table of {@link #VERSION_ROWS} rows, one column written at timestamps 1 to {@link
     * #MAX_VERSIONS}, flushed and read into the BucketCache; with or without NEW_VERSION_BEHAVIOR.
     */
    private Table versions(String name, boolean newVersionBehavior) throws IOException {
        TableName tableName = TableName.valueOf(name);
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(tableName)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Workload.FAMILY)
                            .setMaxVersions(MAX_VERSIONS)
                            .setNewVersionBehavior(newVersionBehavior)
                            .build())
                    .build());
            Table table = connection.getTable(tableName);
            List<Put> puts = new ArrayList<>();
            for (int i = 0; i < VERSION_ROWS; i++) {
                Put put = new Put(Workload.row(i));
                for (long ts = 1; ts <= MAX_VERSIONS; ts++) {
                    put.addColumn(Workload.FAMILY, VERSIONED_QUALIFIER, ts, value(i + (int) ts, SMALL_VALUE));
                }
                puts.add(put);
            }
            table.put(puts);
            admin.flush(tableName);
            Scan all = new Scan().readVersions(MAX_VERSIONS);
            scan(table, all);
            scan(table, all);
            return table;
        }
    }

    /** Creates, loads, flushes and reads table {@code name} twice so its blocks are in the BucketCache. */
    private Table load(
            String name,
            int count,
            IntFunction<byte[]> row,
            IntFunction<List<byte[]>> qualifiers,
            IntFunction<byte[]> value)
            throws IOException {
        TableName tableName = TableName.valueOf(name);
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(tableName)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                    .build());
            Table table = connection.getTable(tableName);
            List<Put> puts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Put put = new Put(row.apply(i));
                for (byte[] q : qualifiers.apply(i)) {
                    put.addColumn(Workload.FAMILY, q, value.apply(i));
                }
                puts.add(put);
            }
            table.put(puts);
            admin.flush(tableName);
            scan(table, new Scan());
            scan(table, new Scan());
            return table;
        }
    }
}
