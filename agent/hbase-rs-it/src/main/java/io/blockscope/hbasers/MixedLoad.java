package io.blockscope.hbasers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A mixed write/read load on one table, run by client threads until closed: each thread repeats a
 * cycle of eight operations (four 1,000-byte puts of random rows, a get, a 10-row multi-get, a 50-row
 * scan, and a 50-row scan through {@code ValueFilter} + {@code RegexStringComparator}, whose inherited
 * {@code compareTo(ByteBuffer, int, int)} copies every value it is given onto the heap). The puts fill
 * the memstore, so the server flushes every few seconds and compacts every few flushes while the
 * reads run; {@link #threads()} counts completed client calls.
 */
final class MixedLoad implements AutoCloseable {

    static final TableName TABLE = TableName.valueOf("mixed");
    static final int ROWS = 10_000;
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");

    private final Connection connection;
    private final Table table;
    private final LoadThreads threads = new LoadThreads();

    private MixedLoad(Connection connection) throws IOException {
        this.connection = connection;
        this.table = connection.getTable(TABLE);
    }

    /** Creates the table, writes {@value #ROWS} rows, flushes, and reads them all once (into the BucketCache). */
    static MixedLoad create(RegionServerProcess server) throws IOException {
        Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                    .build());
            MixedLoad load = new MixedLoad(connection);
            List<Put> puts = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < ROWS; i++) {
                puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, Reads.value(random)));
                if (puts.size() == 1000) {
                    load.table.put(puts);
                    puts.clear();
                }
            }
            admin.flush(TABLE);
            try (ResultScanner scanner = load.table.getScanner(new Scan().setCaching(500))) {
                scanner.forEach(r -> {});
            }
            return load;
        }
    }

    /** Starts {@code count} client threads. */
    void start(int count) {
        threads.start(count, "mixed-load", (step, random) -> once(step % 8, random));
    }

    /** The client threads: calls completed and failed. */
    LoadThreads threads() {
        return threads;
    }

    /** Odd steps read (each kind in turn), even steps put. */
    private void once(int kind, SplittableRandom random) throws IOException {
        int first = random.nextInt(ROWS - Reads.SCAN_ROWS);
        if (kind % 2 == 1) {
            Reads.read(table, kind / 2, first);
        } else {
            table.put(new Put(row(first)).addColumn(FAMILY, QUALIFIER, Reads.value(random)));
        }
    }

    static byte[] row(int i) {
        return Bytes.toBytes(String.format("row-%06d", i));
    }

    @Override
    public void close() throws IOException {
        threads.stop();
        table.close();
        connection.close();
    }
}
