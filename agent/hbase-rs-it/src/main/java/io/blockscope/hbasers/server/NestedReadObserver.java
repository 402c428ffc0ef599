package io.blockscope.hbasers.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A coprocessor that reads another table from inside its own table's scans, as secondary-index
 * and join coprocessors do: before each scan RPC's rows ({@code preScannerNext}) it gets n rows of
 * table {@value #TABLE} one by one ({@code Table.get(Get)}), then n more in one batch ({@code
 * Table.get(List)}), through the RegionServer's own connection. HBase 2 short-circuits that
 * connection to the server's own RPC services: a single get runs on the handler thread, a batch on
 * the connection's pool threads. Each get carries a filter that copies every value (a regex over it,
 * rejecting every row), so the nested reads' copies are easy to tell apart.
 */
public final class NestedReadObserver implements RegionCoprocessor, RegionObserver {

    /** Coprocessor property: the table read from inside the scan. */
    public static final String TABLE = "blockscope.nested.table";
    /** Coprocessor properties: its rows, the format of their keys and how many (0 to 2n - 1). */
    public static final String ROW_FORMAT = "blockscope.nested.row.format";

    public static final String ROWS = "blockscope.nested.rows";
    /** Coprocessor properties: the family and qualifier of the value the filter reads. */
    public static final String FAMILY = "blockscope.nested.family";

    public static final String QUALIFIER = "blockscope.nested.qualifier";

    private TableName table;
    private final List<byte[]> rows = new ArrayList<>();
    private byte[] family;
    private byte[] qualifier;

    @Override
    public void start(CoprocessorEnvironment env) {
        table = TableName.valueOf(env.getConfiguration().get(TABLE));
        String format = env.getConfiguration().get(ROW_FORMAT);
        for (int i = 0; i < env.getConfiguration().getInt(ROWS, 0); i++) {
            rows.add(Bytes.toBytes(String.format(format, i)));
        }
        family = Bytes.toBytes(env.getConfiguration().get(FAMILY));
        qualifier = Bytes.toBytes(env.getConfiguration().get(QUALIFIER));
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public boolean preScannerNext(
            ObserverContext<RegionCoprocessorEnvironment> context,
            InternalScanner scanner,
            List<Result> results,
            int limit,
            boolean hasNext)
            throws IOException {
        int n = rows.size() / 2;
        List<Get> batch = new ArrayList<>(n);
        try (Table other = context.getEnvironment().getConnection().getTable(table)) {
            for (int i = 0; i < n; i++) {
                rejected(other.get(copyingGet(rows.get(i))));
            }
            for (int i = n; i < 2 * n; i++) {
                batch.add(copyingGet(rows.get(i)));
            }
            for (Result r : other.get(batch)) {
                rejected(r);
            }
        }
        return hasNext;
    }

    private Get copyingGet(byte[] row) {
        return new Get(row)
                .setFilter(new SingleColumnValueFilter(
                        family, qualifier, CompareOperator.NOT_EQUAL, new RegexStringComparator(".")));
    }

    private static void rejected(Result r) throws IOException {
        if (!r.isEmpty()) {
            throw new IOException("the nested get's filter rejects every row; got " + r);
        }
    }
}
