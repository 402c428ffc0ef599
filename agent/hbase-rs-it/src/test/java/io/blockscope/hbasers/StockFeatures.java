package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.hbasers.HBaseFeature.Action;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BigDecimalComparator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.BitComparator;
import org.apache.hadoop.hbase.filter.ByteArrayComparable;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.ColumnValueFilter;
import org.apache.hadoop.hbase.filter.DependentColumnFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.LongComparator;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.NullComparator;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * HBase's stock filters, comparators, mutations and read options, each a {@link HBaseFeature} over
 * small tables whose blocks are in the offheap BucketCache: the one list every features run reads
 * (2.6.4 in {@link RegionServerFeaturesTest}, the other lines in {@link
 * RegionServerReleaseFeaturesTest}). Each feature says what 2.6.4's source copies, and with {@link
 * HBaseFeature#on} what another line's source copies instead.
 */
final class StockFeatures implements AutoCloseable {

    private static final String FILTER = "org.apache.hadoop.hbase.filter.";
    private static final String RS = "org.apache.hadoop.hbase.regionserver.RSRpcServices.";

    /** Rows of the main table, one cell each. */
    static final int ROWS = 4000;
    /** Rows of the smaller tables (versions, mutations, NEW_VERSION_BEHAVIOR, MOB). */
    static final int SMALL = 500;
    /** The MOB table's name: 2.4 copies it from each reference cell's tag. */
    static final String MOB_TABLE = "features_mob";

    static final int VERSIONS = 3;
    static final int ROW_BYTES = Workload.row(0).length;
    static final int VALUE_BYTES = Workload.VALUE_BYTES;

    private final FeatureTable main;
    private final FeatureTable versions;
    private final FeatureTable mutations;
    private final FeatureTable counters;
    private final FeatureTable newVersions;
    private final FeatureTable mob;

    private StockFeatures(Connection connection) {
        main = FeatureTable.create(connection, "features", ROWS, 1, Workload::value, f -> f);
        versions = FeatureTable.create(connection, "features_versions", SMALL, VERSIONS, Workload::value, f -> f);
        mutations = FeatureTable.create(connection, "features_mutations", SMALL, 1, Workload::value, f -> f);
        counters = FeatureTable.create(connection, "features_counters", SMALL, 1, i -> Bytes.toBytes((long) i), f -> f);
        newVersions = FeatureTable.create(
                connection, "features_new_versions", SMALL, 1, Workload::value, f -> f.setNewVersionBehavior(true));
        mob = FeatureTable.create(
                connection,
                MOB_TABLE,
                SMALL,
                1,
                Workload::value,
                f -> f.setMobEnabled(true).setMobThreshold(100));
    }

    /** Creates, loads and caches the features' tables on {@code connection}'s server. */
    static StockFeatures create(Connection connection) {
        return new StockFeatures(connection);
    }

    @Override
    public void close() throws IOException {
        for (FeatureTable t : new FeatureTable[] {main, versions, mutations, counters, newVersions, mob}) {
            t.close();
        }
    }

    /** The features as HBase 2.6.4's source has them; {@link HBaseFeature#at} gives another release's. */
    List<HBaseFeature> all() {
        List<HBaseFeature> all = new ArrayList<>();
        all.add(HBaseFeature.of("full scan", "StoreScanner.next: cells are shipped from the block")
                .run(() -> main.scanCells(new Scan())));
        all.add(HBaseFeature.of("reverse scan", "ReversedStoreScanner: same cells, other order")
                .run(() -> main.scanCells(new Scan().setReversed(true))));
        all.addAll(valueComparators());
        all.addAll(keyFilters());
        all.addAll(columnFilters());
        all.addAll(otherFilters());
        all.addAll(gets());
        all.addAll(mutationFeatures());
        all.addAll(familyOptions());
        return all;
    }

    private static String comparatorSite(String filter, String comparator, String method) {
        return FILTER + filter + "(" + comparator + ")." + method + ":";
    }

    private Action scanAll(Filter filter) {
        return () -> main.scanCells(new Scan().setFilter(filter)) + ROWS;
    }

    private static RegexStringComparator anyValue() {
        return new RegexStringComparator(".");
    }

    private List<HBaseFeature> valueComparators() {
        String inherited = "ByteArrayComparable.compareTo(ByteBuffer, int, int): the default copies the bytes";
        String regexInstead =
                "BinaryComparator (equality) or BinaryPrefixComparator (prefix): they read the buffer in place";
        byte[] v7 = Workload.value(7);
        List<HBaseFeature> all = new ArrayList<>();
        all.add(HBaseFeature.of("ValueFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "RegexStringComparator", "filterCell"))
                .instead(regexInstead)
                .run(scanAll(new ValueFilter(CompareOperator.NOT_EQUAL, anyValue()))));
        all.add(HBaseFeature.of("ValueFilter + RegexStringComparator (JONI)", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "RegexStringComparator", "filterCell"))
                .instead(regexInstead)
                .run(scanAll(new ValueFilter(
                        CompareOperator.NOT_EQUAL,
                        new RegexStringComparator(".", RegexStringComparator.EngineType.JONI)))));
        all.add(HBaseFeature.of("ValueFilter + SubstringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "SubstringComparator", "filterCell"))
                .instead("BinaryPrefixComparator when the substring is a prefix; otherwise a comparator"
                        + " that overrides compareTo(ByteBuffer, int, int)")
                .run(scanAll(new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("no such text")))));
        all.add(HBaseFeature.of("ValueFilter + BinaryComponentComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "BinaryComponentComparator", "filterCell"))
                .instead("BinaryComparator or BinaryPrefixComparator on a value laid out for them")
                .run(scanAll(new ValueFilter(
                        CompareOperator.EQUAL, new BinaryComponentComparator(new byte[] {1, 2, 3}, 10)))));
        all.add(HBaseFeature.of(
                        "ValueFilter + BigDecimalComparator",
                        "BigDecimalComparator.compareTo(ByteBuffer, int, int) -> ByteBufferUtils.toBigDecimal copies"
                                + " the unscaled bytes (length - 4)")
                .copies("value", VALUE_BYTES - Bytes.SIZEOF_INT)
                .over(ROWS)
                .site(FILTER + "BigDecimalComparator.compareTo:")
                .instead("LongComparator for integral values, or a fixed-width encoding compared with BinaryComparator")
                .run(scanAll(
                        new ValueFilter(CompareOperator.EQUAL, new BigDecimalComparator(java.math.BigDecimal.ONE)))));
        all.add(zero(
                "ValueFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(v7)))));
        all.add(zero(
                "ValueFilter + BinaryPrefixComparator",
                "BinaryPrefixComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new ValueFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(new byte[] {7, 38})))));
        all.add(zero(
                "ValueFilter + NullComparator",
                "NullComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new ValueFilter(CompareOperator.EQUAL, new NullComparator()))));
        all.add(zero(
                "ValueFilter + BitComparator",
                "BitComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new ValueFilter(CompareOperator.EQUAL, new BitComparator(v7, BitComparator.BitwiseOp.AND)))));
        all.add(zero(
                "ValueFilter + LongComparator",
                "LongComparator.compareTo(ByteBuffer, int, int): ByteBufferUtils.toLong",
                // 8-byte values: LongComparator reads the first 8 bytes of any value
                () -> counters.scanCells(
                                new Scan().setFilter(new ValueFilter(CompareOperator.EQUAL, new LongComparator(7L))))
                        + SMALL));
        all.add(HBaseFeature.of("SingleColumnValueFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("SingleColumnValueFilter", "RegexStringComparator", "filterColumnValue"))
                .instead(regexInstead)
                .run(scanAll(scvf(anyValue()))));
        all.add(HBaseFeature.of("SingleColumnValueExcludeFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("SingleColumnValueFilter", "RegexStringComparator", "filterColumnValue"))
                .instead(regexInstead)
                .run(scanAll(new SingleColumnValueExcludeFilter(
                        Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, anyValue()))));
        all.add(zero(
                "SingleColumnValueFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(scvf(new BinaryComparator(v7)))));
        all.add(HBaseFeature.of("DependentColumnFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("DependentColumnFilter", "RegexStringComparator", "filterCell"))
                .instead(regexInstead)
                .run(scanAll(new DependentColumnFilter(
                        Workload.FAMILY, Workload.QUALIFIER, false, CompareOperator.NOT_EQUAL, anyValue()))));
        all.add(zero(
                "DependentColumnFilter, no comparator",
                "DependentColumnFilter.filterCell: timestamps only",
                scanAll(new DependentColumnFilter(Workload.FAMILY, Workload.QUALIFIER))));
        all.add(HBaseFeature.of("ColumnValueFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ColumnValueFilter", "RegexStringComparator", "compareValue"))
                .instead(regexInstead)
                .run(scanAll(new ColumnValueFilter(
                        Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, anyValue()))));
        all.add(zero(
                "ColumnValueFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new ColumnValueFilter(
                        Workload.FAMILY, Workload.QUALIFIER, CompareOperator.EQUAL, new BinaryComparator(v7)))));
        all.add(HBaseFeature.of(
                        "FilterList (AND) of PrefixFilter and SingleColumnValueFilter + RegexStringComparator",
                        inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("SingleColumnValueFilter", "RegexStringComparator", "filterColumnValue"))
                .instead(regexInstead)
                .run(scanAll(new FilterList(
                        FilterList.Operator.MUST_PASS_ALL,
                        new PrefixFilter(Bytes.toBytes("row-")),
                        scvf(anyValue())))));
        all.add(zero(
                "FilterList (OR) of ValueFilters + BinaryComparator",
                "FilterListWithOR: each filter's own path",
                scanAll(new FilterList(
                        FilterList.Operator.MUST_PASS_ONE,
                        new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(v7)),
                        new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.value(8)))))));
        all.add(HBaseFeature.of("SkipFilter of ValueFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "RegexStringComparator", "filterCell"))
                .instead(regexInstead)
                .run(scanAll(new SkipFilter(new ValueFilter(CompareOperator.NOT_EQUAL, anyValue())))));
        all.add(HBaseFeature.of("WhileMatchFilter of ValueFilter + RegexStringComparator", inherited)
                .copies("value", VALUE_BYTES)
                .over(ROWS)
                .site(comparatorSite("ValueFilter", "RegexStringComparator", "filterCell"))
                .instead(regexInstead)
                .run(scanAll(new WhileMatchFilter(new ValueFilter(CompareOperator.EQUAL, anyValue())))));
        return all;
    }

    private static SingleColumnValueFilter scvf(ByteArrayComparable comparator) {
        return new SingleColumnValueFilter(Workload.FAMILY, Workload.QUALIFIER, CompareOperator.NOT_EQUAL, comparator);
    }

    private List<HBaseFeature> keyFilters() {
        List<HBaseFeature> all = new ArrayList<>();
        String inherited = "ByteArrayComparable.compareTo(ByteBuffer, int, int): the default copies the bytes";
        all.add(HBaseFeature.of("RowFilter + RegexStringComparator", inherited)
                .copies("row", ROW_BYTES)
                .over(ROWS)
                .site(comparatorSite("RowFilter", "RegexStringComparator", "filterRowKey"))
                .instead("PrefixFilter, scan start/stop rows, or RowFilter + BinaryPrefixComparator")
                .run(scanAll(new RowFilter(CompareOperator.NOT_EQUAL, new RegexStringComparator(".")))));
        all.add(zero(
                "RowFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new RowFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.row(7))))));
        all.add(HBaseFeature.of("FamilyFilter + RegexStringComparator", inherited)
                .copies("family", Workload.FAMILY.length)
                .over(ROWS)
                .site(comparatorSite("FamilyFilter", "RegexStringComparator", "filterCell"))
                .instead("Scan.addFamily, or FamilyFilter + BinaryComparator")
                .run(scanAll(new FamilyFilter(CompareOperator.EQUAL, new RegexStringComparator("f")))));
        all.add(zero(
                "FamilyFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.FAMILY)))));
        all.add(HBaseFeature.of("QualifierFilter + RegexStringComparator", inherited)
                .copies("qualifier", Workload.QUALIFIER.length)
                .over(ROWS)
                .site(comparatorSite("QualifierFilter", "RegexStringComparator", "filterCell"))
                .instead("Scan.addColumn, ColumnPrefixFilter, or QualifierFilter + BinaryComparator")
                .run(scanAll(new QualifierFilter(CompareOperator.EQUAL, new RegexStringComparator("q")))));
        all.add(zero(
                "QualifierFilter + BinaryComparator",
                "BinaryComparator.compareTo(ByteBuffer, int, int)",
                scanAll(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(Workload.QUALIFIER)))));
        all.add(zero(
                "PrefixFilter",
                "PrefixFilter.filterRowKey: ByteBufferUtils.compareTo on the row buffer",
                scanAll(new PrefixFilter(Bytes.toBytes("row-001")))));
        byte[] fuzzyKey = Bytes.toBytes("row-000000");
        byte[] fuzzyMask = new byte[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
        all.add(HBaseFeature.of(
                        "FuzzyRowFilter",
                        "FuzzyRowFilter.filterCell: getRowArray(); filterRowKey inherited from FilterBase: getRowArray()")
                .copies("row", 2 * ROW_BYTES)
                .over(ROWS)
                .site(FILTER + "FuzzyRowFilter.")
                .instead("none in HBase: the row copies are small; a prefix-designed key with PrefixFilter")
                .run(scanAll(new FuzzyRowFilter(List.of(new Pair<>(fuzzyKey, fuzzyMask))))));
        // [row-000100, row-000300): the first row read (row 0) and the one after the range (row 300) are
        // cloned to find a range (CellUtil.cloneRow), and every row read takes getRowArray() once.
        all.add(HBaseFeature.of(
                        "MultiRowRangeFilter",
                        "MultiRowRangeFilter.filterRowKey: getRowArray() each row, CellUtil.cloneRow() off a range")
                .copies("row", ROW_BYTES)
                .over(1 + 1 + 200 + 1 + 1)
                .site(FILTER + "MultiRowRangeFilter.filterRowKey:")
                .instead("one scan per range with start and stop rows")
                .run(() -> main.scanCells(new Scan()
                        .setFilter(new MultiRowRangeFilter(new ArrayList<>(List.of(new MultiRowRangeFilter.RowRange(
                                Workload.row(100), true, Workload.row(300), false))))))));
        all.add(zero(
                "InclusiveStopFilter",
                "CellComparator.compareRows(Cell, byte[], int, int): in place",
                scanAll(new InclusiveStopFilter(Workload.row(2000)))));
        all.add(zero(
                "RandomRowFilter", "RandomRowFilter.filterRowKey: no bytes read", scanAll(new RandomRowFilter(0.5f))));
        all.add(zero("PageFilter", "PageFilter: counts rows", scanAll(new PageFilter(1000))));
        return all;
    }

    private List<HBaseFeature> columnFilters() {
        List<HBaseFeature> all = new ArrayList<>();
        all.add(zero(
                "ColumnPrefixFilter",
                "ColumnPrefixFilter.compareQualifierPart: ByteBufferUtils.compareTo",
                scanAll(new ColumnPrefixFilter(Workload.QUALIFIER))));
        all.add(HBaseFeature.of(
                        "MultipleColumnPrefixFilter",
                        "MultipleColumnPrefixFilter.filterColumn: CellUtil.cloneQualifier")
                .copies("qualifier", Workload.QUALIFIER.length)
                .over(ROWS)
                .site(FILTER + "MultipleColumnPrefixFilter.filterColumn:")
                .instead("FilterList (OR) of ColumnPrefixFilters")
                .run(scanAll(new MultipleColumnPrefixFilter(new byte[][] {Workload.QUALIFIER, Bytes.toBytes("z")}))));
        all.add(zero(
                "FilterList (OR) of ColumnPrefixFilters",
                "ColumnPrefixFilter.compareQualifierPart",
                scanAll(new FilterList(
                        FilterList.Operator.MUST_PASS_ONE,
                        new ColumnPrefixFilter(Workload.QUALIFIER),
                        new ColumnPrefixFilter(Bytes.toBytes("z"))))));
        all.add(zero(
                "ColumnRangeFilter",
                "CellUtil.compareQualifiers(Cell, byte[], int, int): in place",
                scanAll(new ColumnRangeFilter(Bytes.toBytes("a"), true, Bytes.toBytes("z"), true))));
        all.add(zero(
                "ColumnPaginationFilter",
                "ColumnPaginationFilter.filterCell: counts columns",
                scanAll(new ColumnPaginationFilter(1, 0))));
        all.add(zero(
                "ColumnCountGetFilter",
                "ColumnCountGetFilter.filterCell: counts columns",
                scanAll(new ColumnCountGetFilter(1))));
        return all;
    }

    private List<HBaseFeature> otherFilters() {
        List<HBaseFeature> all = new ArrayList<>();
        all.add(zero(
                "KeyOnlyFilter",
                "KeyOnlyFilter.transformCell: KeyOnlyByteBufferExtendedCell over the buffer",
                scanAll(new KeyOnlyFilter())));
        all.add(zero("FirstKeyOnlyFilter", "FirstKeyOnlyFilter.filterCell", scanAll(new FirstKeyOnlyFilter())));
        all.add(zero(
                "TimestampsFilter",
                "TimestampsFilter.filterCell: timestamps only",
                scanAll(new TimestampsFilter(List.of(1L, 2L)))));
        return all;
    }

    private List<HBaseFeature> gets() {
        List<HBaseFeature> all = new ArrayList<>();
        all.add(zero("Get with a column", "ExplicitColumnTracker: qualifiers compared in place", () -> {
            int cells = 0;
            for (int i = 0; i < ROWS; i += 8) {
                cells += main.table
                        .get(new Get(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER))
                        .size();
            }
            return cells;
        }));
        all.add(zero("multi-get with a column", "ExplicitColumnTracker", () -> {
            List<Get> batch = new ArrayList<>();
            for (int i = 0; i < ROWS; i += 8) {
                batch.add(new Get(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER));
            }
            int cells = 0;
            for (Result r : main.table.get(batch)) {
                cells += r.size();
            }
            return cells;
        }));
        all.add(zero("Get of 3 versions", "ScanWildcardColumnTracker.checkVersions", () -> {
            int cells = 0;
            for (int i = 0; i < SMALL; i++) {
                cells += versions.table
                        .get(new Get(Workload.row(i)).readVersions(VERSIONS))
                        .size();
            }
            return cells;
        }));
        // One RPC for the whole table (500 rows of caching): at its end RSRpcServices.scan keeps the row of
        // a last result that may have more cells (rowOfLastPartialResult = lastResult.getRow(), which
        // clones the row): by design, so counted as retained-key, and no avoidable copy.
        all.add(HBaseFeature.of(
                        "scan of 3 versions: the row kept across RPCs",
                        "RSRpcServices.scan: rowOfLastPartialResult = lastResult.getRow() (CellUtil.cloneRow)")
                .byDesign("retained-key", ROW_BYTES)
                .over(1)
                .per("scan RPC whose last row may go on")
                .instead("none: HBase keeps the row across RPCs by design (one row key per RPC)")
                .run(() -> versions.scanCells(new Scan().readVersions(VERSIONS).setMaxResultSize(64L << 20))));
        return all;
    }

    private List<HBaseFeature> mutationFeatures() {
        List<HBaseFeature> all = new ArrayList<>();
        // rows 0-99 appended, 100-199 and 200-299 checked: each reads a cached cell once
        all.add(HBaseFeature.of(
                        "Append",
                        "HRegion$MutationBatchOperation.reckonDeltasByStore: oldCell.getValueArray() builds the new value")
                .copies("value", VALUE_BYTES)
                .over(100)
                .site(RS + "append:")
                .instead("a Put of the new value when the client has it")
                .run(() -> {
                    for (int i = 0; i < 100; i++) {
                        mutations.table.append(new Append(Workload.row(i))
                                .addColumn(Workload.FAMILY, Workload.QUALIFIER, new byte[] {'!'}));
                    }
                    return 100;
                }));
        all.add(zero("Increment", "HRegion$MutationBatchOperation.getLongValue: PrivateCellUtil.getValueAsLong", () -> {
            for (int i = 0; i < 100; i++) {
                counters.table.increment(
                        new Increment(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER, 1L));
            }
            return 100;
        }));
        all.add(zero(
                "CheckAndMutate + BinaryComparator",
                "HRegion.checkAndMutateInternal: PrivateCellUtil.compareValue",
                () -> checkAndPut(
                        100,
                        i -> CheckAndMutate.newBuilder(Workload.row(i))
                                .ifMatches(
                                        Workload.FAMILY,
                                        Workload.QUALIFIER,
                                        CompareOperator.EQUAL,
                                        Workload.value(i)))));
        all.add(zero(
                "CheckAndMutate with a filter (SingleColumnValueFilter + BinaryComparator)",
                "HRegion.checkAndMutateInternal: the filter's own path",
                () -> checkAndPut(
                        200,
                        i -> CheckAndMutate.newBuilder(Workload.row(i))
                                .ifMatches(new SingleColumnValueFilter(
                                        Workload.FAMILY,
                                        Workload.QUALIFIER,
                                        CompareOperator.EQUAL,
                                        Workload.value(i))))));
        return all;
    }

    private int checkAndPut(int first, java.util.function.IntFunction<CheckAndMutate.Builder> condition)
            throws IOException {
        int done = 0;
        for (int i = first; i < first + 100; i++) {
            boolean ok = mutations
                    .table
                    .checkAndMutate(condition
                            .apply(i)
                            .build(new Put(Workload.row(i))
                                    .addColumn(Workload.FAMILY, Bytes.toBytes("c"), new byte[] {1})))
                    .isSuccess();
            done += ok ? 1 : 0;
        }
        assertEquals(100, done, "every check matched");
        return done;
    }

    private List<HBaseFeature> familyOptions() {
        List<HBaseFeature> all = new ArrayList<>();
        all.add(HBaseFeature.of(
                        "NEW_VERSION_BEHAVIOR scan",
                        "NewVersionBehaviorTracker.prepare: lastCqArray = cell.getQualifierArray() each cell")
                .copies("qualifier", Workload.QUALIFIER.length)
                .over(SMALL)
                .site(RS + "scan:")
                .instead(
                        "the default version behaviour (NEW_VERSION_BEHAVIOR false) unless its delete semantics are needed")
                .run(() -> newVersions.scanCells(new Scan())));
        // A MOB reference cell's value is the MOB value's length (4 bytes) and the MOB file's name:
        // md5 of the start key (32), date (8), uuid (32), "_", encoded region name (32) (MobFileName).
        all.add(HBaseFeature.of(
                        "MOB scan",
                        "HMobStore.resolve -> MobUtils.getMobFileName: getValueArray() of each reference cell")
                .copies("value", Bytes.SIZEOF_INT + 32 + 8 + 32 + 1 + 32)
                .over(SMALL)
                .site("org.apache.hadoop.hbase.mob.MobUtils.getMobFileName:")
                .instead("none in HBase: each MOB read copies its reference cell's value (the file name), small"
                        + " next to the MOB value it resolves")
                // 2.4's MOB file names end at the uuid (no "_" and region name), and 2.4 reads the
                // table-name tag with Tag.getValueAsString, which clones it (Tag.cloneValue, the
                // tag-copy door); 2.5 on parse it in place (TableName.valueOf(ByteBuffer)).
                .on(
                        "2.4",
                        f -> f.copies("value", Bytes.SIZEOF_INT + 32 + 8 + 32)
                                .copies("tags", MOB_TABLE.length())
                                .site("org.apache.hadoop.hbase.regionserver.HMobStore.resolve:")
                                .decided(
                                        "HMobStore.resolve -> MobUtils.getMobFileName: getValueArray() of each reference"
                                                + " cell, a shorter file name (MobFileName: md5, date, uuid); MobUtils.getTableNameTag"
                                                + " -> Tag.getValueAsString clones the table-name tag's value (Tag.cloneValue)"))
                .run(() -> mob.scanCells(new Scan())));
        return all;
    }

    private static HBaseFeature zero(String name, String decidedIn, Action action) {
        return HBaseFeature.of(name, decidedIn).run(action);
    }
}
