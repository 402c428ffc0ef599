package io.blockscope.hbasers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A mixed write/read load on one table, run by client threads until closed: each thread repeats a
 * cycle of eight operations (four 1,000-byte puts of random rows, a get, a 10-row multi-get, a 50-row
 * scan, and a 50-row scan through {@code ValueFilter} + {@code RegexStringComparator}, whose inherited
 * {@code compareTo(ByteBuffer, int, int)} copies every value it is given onto the heap). The puts fill
 * the memstore, so the server flushes every few seconds and compacts every few flushes while the
 * reads run; {@link #operations()} counts completed client calls.
 */
final class MixedLoad implements AutoCloseable {

    static final TableName TABLE = TableName.valueOf("mixed");
    static final int ROWS = 10_000;
    static final int VALUE_BYTES = 1000;
    static final int SCAN_ROWS = 50;
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    /** Matches no value: the server compares (and copies) every value of the range and sends none back. */
    private static final String NO_VALUE = "^blockscope-matches-no-value";

    private final Connection connection;
    private final Table table;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();
    private volatile boolean running = true;

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
                puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(random)));
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
        for (int t = 0; t < count; t++) {
            long seed = 1000 + t;
            Thread thread = new Thread(() -> run(new SplittableRandom(seed)), "mixed-load-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    long operations() {
        return operations.get();
    }

    long errors() {
        return errors.get();
    }

    Throwable firstError() {
        return firstError.get();
    }

    private void run(SplittableRandom random) {
        for (int step = 0; running; step++) {
            try {
                once(step % 8, random);
                operations.incrementAndGet();
            } catch (IOException | RuntimeException e) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, e);
            }
        }
    }

    private void once(int kind, SplittableRandom random) throws IOException {
        int first = random.nextInt(ROWS - SCAN_ROWS);
        switch (kind) {
            case 1:
                table.get(new Get(row(first)));
                break;
            case 3:
                List<Get> gets = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    gets.add(new Get(row(first + i)));
                }
                table.get(gets);
                break;
            case 5:
                scan(new Scan().withStartRow(row(first)).withStopRow(row(first + SCAN_ROWS)));
                break;
            case 7:
                scan(new Scan()
                        .withStartRow(row(first))
                        .withStopRow(row(first + SCAN_ROWS))
                        .setFilter(new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator(NO_VALUE))));
                break;
            default:
                table.put(new Put(row(first)).addColumn(FAMILY, QUALIFIER, value(random)));
        }
    }

    private void scan(Scan scan) throws IOException {
        try (ResultScanner scanner = table.getScanner(scan.setCaching(SCAN_ROWS))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                // read to the end
            }
        }
    }

    static byte[] row(int i) {
        return Bytes.toBytes(String.format("row-%06d", i));
    }

    private static byte[] value(SplittableRandom random) {
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < value.length; i += 8) {
            long bits = random.nextLong();
            for (int j = 0; j < 8 && i + j < value.length; j++) {
                value[i + j] = (byte) (bits >>> (8 * j));
            }
        }
        return value;
    }

    @Override
    public void close() throws IOException {
        running = false;
        for (Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        table.close();
        connection.close();
    }
}
