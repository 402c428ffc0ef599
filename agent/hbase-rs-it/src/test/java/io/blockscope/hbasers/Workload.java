package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.hbasers.server.CopyingValueFilter;
import io.blockscope.hbasers.server.LeakingObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The client side (hbase-client in the test JVM): one table of {@value #ROWS} rows with one
 * {@value #VALUE_BYTES}-byte value each, flushed to an HFile so reads go through the block cache, and
 * the reads an application makes. Each read checks what came back, so the driver's own counts are known.
 */
final class Workload implements AutoCloseable {

    static final int ROWS = 4000;
    static final int VALUE_BYTES = 1000;
    static final byte[] FAMILY = Bytes.toBytes("f");
    static final byte[] QUALIFIER = Bytes.toBytes("q");

    private final Connection connection;
    private final TableName name;
    private final Table table;

    private Workload(Connection connection, TableName name) throws IOException {
        this.connection = connection;
        this.name = name;
        this.table = connection.getTable(name);
    }

    /** Creates, loads and flushes table {@code name}. */
    /** The encoded name of the table's one region (tables here are never split). */
    static String onlyRegion(Connection connection, TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            List<RegionInfo> regions = admin.getRegions(table);
            assertEquals(1, regions.size(), "one region: " + regions);
            return regions.get(0).getEncodedName();
        }
    }

    static Workload create(RegionServerProcess server, String name) {
        return create(server, name, DataBlockEncoding.NONE);
    }

    /** Creates, loads and flushes table {@code name}, its blocks encoded with {@code encoding}. */
    static Workload create(RegionServerProcess server, String name, DataBlockEncoding encoding) {
        try {
            Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
            TableName table = TableName.valueOf(name);
            try (Admin admin = connection.getAdmin()) {
                admin.createTable(TableDescriptorBuilder.newBuilder(table)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                                .setDataBlockEncoding(encoding)
                                .build())
                        .build());
            }
            Workload workload = new Workload(connection, table);
            workload.load();
            return workload;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A connection that says it is {@code user} (simple authentication): the user copies are owned by. */
    static Connection connectionAs(RegionServerProcess server, String user) throws IOException {
        return ConnectionFactory.createConnection(
                server.clientConfiguration(), User.create(UserGroupInformation.createRemoteUser(user)));
    }

    /**
     * HBase's own copying filter: "." matches every value, so NOT_EQUAL drops every row, and the comparator
     * copies each value onto the heap first.
     */
    static SingleColumnValueFilter regexDroppingEveryRow() {
        return new SingleColumnValueFilter(
                FAMILY, QUALIFIER, CompareOperator.NOT_EQUAL, new RegexStringComparator("."));
    }

    /** Row keys, by index: also handed to server-side code that builds them itself. */
    static final String ROW_FORMAT = "row-%06d";

    static byte[] row(int i) {
        return Bytes.toBytes(String.format(ROW_FORMAT, i));
    }

    static byte[] value(int i) {
        byte[] value = new byte[VALUE_BYTES];
        for (int j = 0; j < value.length; j++) {
            value[j] = (byte) (i * 31 + j);
        }
        return value;
    }

    private void load() throws IOException {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(i)));
        }
        table.put(puts);
        try (Admin admin = connection.getAdmin()) {
            admin.flush(name);
        }
    }

    /** {@code count} single-row gets spread over the table; returns the rows found. */
    int gets(int count) throws IOException {
        int found = 0;
        for (int i = 0; i < count; i++) {
            int r = (int) ((i * 7919L) % ROWS);
            Result result = table.get(new Get(row(r)));
            assertEquals(VALUE_BYTES, result.getValue(FAMILY, QUALIFIER).length, "row " + r);
            found++;
        }
        return found;
    }

    /** {@code batches} multi-gets of 100 consecutive rows each; returns the rows found. */
    int multiGets(int batches) throws IOException {
        int found = 0;
        for (int b = 0; b < batches; b++) {
            int first = (b * 997) % (ROWS - 100);
            List<Get> gets = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                gets.add(new Get(row(first + i)));
            }
            for (Result result : table.get(gets)) {
                if (!result.isEmpty()) {
                    found++;
                }
            }
        }
        return found;
    }

    /** A full scan; returns the rows. */
    int scan() throws IOException {
        return count(new Scan().setCaching(500));
    }

    /** A scan with a server-side prefix filter (rows row-001xxx); returns the rows. */
    int prefixScan() throws IOException {
        return count(new Scan().setCaching(500).setFilter(new PrefixFilter(Bytes.toBytes("row-001"))));
    }

    /** A full scan through {@link CopyingValueFilter}, which copies every value it sees; returns the rows. */
    int copyingScan() throws IOException {
        return count(new Scan().setCaching(500).setFilter(new CopyingValueFilter(true)));
    }

    /**
     * A full scan whose {@link CopyingValueFilter} copies every value and then skips the row: all the
     * copying of {@link #copyingScan()} on the server, nothing sent back. Returns the rows (none).
     */
    int copyingLoadScan() throws IOException {
        return count(new Scan().setCaching(500).setFilter(new CopyingValueFilter(false)));
    }

    /** A full scan through {@code filter}; returns the rows it let through. */
    int scan(Filter filter) throws IOException {
        return count(new Scan().setCaching(500).setFilter(filter));
    }

    /** A full reverse scan through {@code filter}; returns the rows it let through. */
    int reverseScan(Filter filter) throws IOException {
        return count(new Scan().setReversed(true).setCaching(500).setFilter(filter));
    }

    /** Appends {@code suffix} to the value of rows {@code 0 .. rows-1}, one Append each. */
    void append(int rows, byte[] suffix) throws IOException {
        for (int i = 0; i < rows; i++) {
            table.append(new Append(row(i)).addColumn(FAMILY, QUALIFIER, suffix));
        }
    }

    /** Has {@link LeakingObserver} open a region scanner and keep it. */
    void leakScanner() throws IOException {
        Get get = new Get(row(0));
        get.setAttribute(LeakingObserver.LEAK, new byte[] {1});
        table.get(get);
    }

    /** Has {@link LeakingObserver} close the scanners it keeps. */
    void closeLeakedScanners() throws IOException {
        Get get = new Get(row(0));
        get.setAttribute(LeakingObserver.CLOSE, new byte[] {1});
        table.get(get);
    }

    private int count(Scan scan) throws IOException {
        int rows = 0;
        try (ResultScanner scanner = table.getScanner(scan)) {
            for (Result result : scanner) {
                assertEquals(VALUE_BYTES, result.getValue(FAMILY, QUALIFIER).length);
                rows++;
            }
        }
        return rows;
    }

    @Override
    public void close() throws IOException {
        table.close();
        connection.close();
    }
}
