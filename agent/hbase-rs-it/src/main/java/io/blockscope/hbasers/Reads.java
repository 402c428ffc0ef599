package io.blockscope.hbasers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;

/**
 * The reads {@link MixedLoad} and {@link ReadLoad} make, and the values they write: a get, a 10-row
 * multi-get, a 50-row scan, and a 50-row scan through {@code ValueFilter} + {@code
 * RegexStringComparator}, whose inherited {@code compareTo(ByteBuffer, int, int)} copies every value
 * it is given onto the heap.
 */
final class Reads {

    /** Kinds of read, for {@link #read}. */
    static final int KINDS = 4;

    static final int VALUE_BYTES = 1000;
    static final int SCAN_ROWS = 50;
    /** Matches no value: the server compares (and copies) every value of the range and sends none back. */
    private static final String NO_VALUE = "^blockscope-matches-no-value";

    private Reads() {}

    /** Read {@code kind} (0 to {@link #KINDS} - 1) from row {@code first} on. */
    static void read(Table table, int kind, int first) throws IOException {
        switch (kind) {
            case 0:
                table.get(new Get(MixedLoad.row(first)));
                break;
            case 1:
                List<Get> gets = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    gets.add(new Get(MixedLoad.row(first + i)));
                }
                table.get(gets);
                break;
            case 2:
                scan(
                        table,
                        new Scan().withStartRow(MixedLoad.row(first)).withStopRow(MixedLoad.row(first + SCAN_ROWS)));
                break;
            default:
                scan(
                        table,
                        new Scan()
                                .withStartRow(MixedLoad.row(first))
                                .withStopRow(MixedLoad.row(first + SCAN_ROWS))
                                .setFilter(
                                        new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator(NO_VALUE))));
        }
    }

    private static void scan(Table table, Scan scan) throws IOException {
        try (ResultScanner scanner = table.getScanner(scan.setCaching(SCAN_ROWS))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                // read to the end
            }
        }
    }

    /** A value of {@link #VALUE_BYTES} random bytes. */
    static byte[] value(SplittableRandom random) {
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < value.length; i += 8) {
            long bits = random.nextLong();
            for (int j = 0; j < 8 && i + j < value.length; j++) {
                value[i + j] = (byte) (bits >>> (8 * j));
            }
        }
        return value;
    }
}
