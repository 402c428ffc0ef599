package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.coprocessor.BigDecimalColumnInterpreter;
import org.apache.hadoop.hbase.client.coprocessor.DoubleColumnInterpreter;
import org.apache.hadoop.hbase.client.coprocessor.LongColumnInterpreter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's {@code AggregateImplementation} endpoint, loaded as a table coprocessor, with each stock
 * column interpreter (hbase-client's {@code LongColumnInterpreter}, {@code DoubleColumnInterpreter},
 * {@code BigDecimalColumnInterpreter}) over a small table of values it reads, and its row count.
 * Needs hbase-endpoint on the RegionServer's class path ({@link #servedBy}).
 */
final class AggregateFeatures implements AutoCloseable {

    static final int ROWS = StockFeatures.SMALL;
    /** The methods that read values through the interpreter (GetRowNum only counts rows). */
    static final List<String> VALUE_METHODS = AggregateEndpoint.METHODS.stream()
            .filter(m -> !m.equals("GetRowNum"))
            .toList();

    private static final String ENDPOINT = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation.";
    private static final String INTERPRETERS = "org.apache.hadoop.hbase.client.coprocessor.";
    private static final BigInteger LARGE = BigInteger.TEN.pow(100);
    /** 4 bytes of scale and the unscaled 10^100 + row (42 bytes for every row of the table). */
    static final int DECIMAL_BYTES = decimal(0).length;

    private final FeatureTable longs;
    private final FeatureTable doubles;
    private final FeatureTable decimals;

    private AggregateFeatures(Connection connection) {
        longs = table(connection, "aggregate_longs", i -> Bytes.toBytes((long) i));
        doubles = table(connection, "aggregate_doubles", i -> Bytes.toBytes((double) i));
        decimals = table(connection, "aggregate_decimals", AggregateFeatures::decimal);
    }

    /** Whether a RegionServer class path has hbase-endpoint (where the build could resolve it). */
    static boolean servedBy(String classPath) {
        return classPath.contains("hbase-endpoint-");
    }

    static AggregateFeatures create(Connection connection) {
        return new AggregateFeatures(connection);
    }

    static byte[] decimal(int row) {
        return Bytes.toBytes(new BigDecimal(LARGE.add(BigInteger.valueOf(row)), 2));
    }

    private static FeatureTable table(Connection connection, String name, IntFunction<byte[]> value) {
        return FeatureTable.create(connection, name, ROWS, 1, value, f -> f, AggregateFeatures::withEndpoint, p -> p);
    }

    private static TableDescriptorBuilder withEndpoint(TableDescriptorBuilder table) {
        try {
            return table.setCoprocessor(AggregateEndpoint.IMPLEMENTATION);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As HBase's 2.4, 2.5 and 2.6.4 sources read them; 2.6.1's endpoint copies a row key per row it reads. */
    List<HBaseFeature> all() {
        String methods = "(max, min, sum, avg, std, median)";
        return List.of(
                HBaseFeature.of(
                                "AggregateImplementation + LongColumnInterpreter " + methods,
                                "LongColumnInterpreter.getValue: PrivateCellUtil.getValueAsLong reads in place")
                        .on("2.6.1", f -> rowPerRead(f, VALUE_METHODS.size() * ROWS))
                        .run(() -> aggregate(longs, LongColumnInterpreter.class.getName())),
                HBaseFeature.of(
                                "AggregateImplementation + DoubleColumnInterpreter " + methods,
                                "DoubleColumnInterpreter.getValue: PrivateCellUtil.getValueAsDouble reads in place")
                        .on("2.6.1", f -> rowPerRead(f, VALUE_METHODS.size() * ROWS))
                        .run(() -> aggregate(doubles, DoubleColumnInterpreter.class.getName())),
                HBaseFeature.of(
                                "AggregateImplementation + BigDecimalColumnInterpreter " + methods,
                                "BigDecimalColumnInterpreter.getValue: CellUtil.cloneValue (the value), then"
                                        + " PrivateCellUtil.getValueAsBigDecimal -> ByteBufferUtils.toBigDecimal"
                                        + " (length - 4)")
                        .copies("value", DECIMAL_BYTES + DECIMAL_BYTES - Bytes.SIZEOF_INT)
                        .over(VALUE_METHODS.size() * ROWS)
                        .site(INTERPRETERS + "BigDecimalColumnInterpreter.getValue:")
                        .instead("LongColumnInterpreter or DoubleColumnInterpreter on 8-byte values: they read in"
                                + " place")
                        .on("2.6.1", f -> rowPerRead(f, VALUE_METHODS.size() * ROWS))
                        .run(() -> aggregate(decimals, BigDecimalColumnInterpreter.class.getName())),
                HBaseFeature.of(
                                "AggregateImplementation row count",
                                "AggregateImplementation.getRowNum: counts the rows a FirstKeyOnlyFilter scan returns")
                        .on("2.6.1", f -> rowPerRead(f, ROWS))
                        .run(this::rowCount));
    }

    /**
     * 2.6.1's AggregateImplementation remembers where each scanner.next() ended, for a partial
     * result, by the last cell's getRowArray(): a row key copied per row read, whether or not the
     * client asked for partial results.
     */
    private static void rowPerRead(HBaseFeature f, int rowsRead) {
        f.copies("row", StockFeatures.ROW_BYTES)
                .over(rowsRead)
                .site(ENDPOINT + "postScanPartialResultUpdate:")
                .decided(f.decidedIn + "; AggregateImplementation.postScanPartialResultUpdate: getRowArray() of"
                        + " each row's last cell")
                .instead("hbase-endpoint 2.6.4, whose AggregateImplementation keeps each read's last cell, not a"
                        + " copy of its row"
                        + (f.alternative.isEmpty() ? "" : "; " + f.alternative));
    }

    /** Every value method over the whole table; each must answer. */
    private static int aggregate(FeatureTable table, String interpreter) throws IOException {
        for (String method : VALUE_METHODS) {
            List<ByteString> answer = AggregateEndpoint.call(
                    table.table,
                    Workload.row(0),
                    method,
                    interpreter,
                    new Scan().addColumn(Workload.FAMILY, Workload.QUALIFIER));
            assertFalse(answer.isEmpty(), method + " with " + interpreter + " answered nothing");
        }
        return VALUE_METHODS.size() * ROWS;
    }

    private int rowCount() throws IOException {
        List<ByteString> answer = AggregateEndpoint.call(
                longs.table,
                Workload.row(0),
                "GetRowNum",
                LongColumnInterpreter.class.getName(),
                new Scan().addFamily(Workload.FAMILY));
        long rows = Bytes.toLong(answer.get(0).toByteArray());
        assertEquals(ROWS, rows, "the endpoint counted every row");
        return (int) rows;
    }

    @Override
    public void close() throws IOException {
        for (FeatureTable t : new FeatureTable[] {longs, doubles, decimals}) {
            t.close();
        }
    }
}
