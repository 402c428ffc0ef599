package io.blockscope.hbasers;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
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
 * A steady read-only load on one table: {@link MixedLoad}'s reads without its puts. Each client
 * thread repeats a get, a 10-row multi-get, a 50-row scan and a 50-row scan through {@code
 * ValueFilter} + {@code RegexStringComparator}. The table is written, flushed and major-compacted to
 * one file before the load starts, so nothing flushes or compacts while it runs.
 */
final class ReadLoad implements AutoCloseable {

    static final TableName TABLE = TableName.valueOf("reads");
    static final int VALUE_BYTES = 1000;
    static final int SCAN_ROWS = 50;
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    /** Matches no value: the server compares every value of the range and sends none back. */
    private static final String NO_VALUE = "^blockscope-matches-no-value";

    private static final Duration COMPACTION_TIMEOUT = Duration.ofSeconds(120);

    private final Connection connection;
    private final Table table;
    private final int rows;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();
    private volatile boolean running = true;

    private ReadLoad(Connection connection, int rows) throws IOException {
        this.connection = connection;
        this.table = connection.getTable(TABLE);
        this.rows = rows;
    }

    /**
     * Creates the table, writes {@code rows} rows in two flushed halves, major-compacts them into one
     * file and waits for that, then reads every row once (into the BucketCache).
     */
    static ReadLoad create(RegionServerProcess server, int rows) throws IOException {
        if (rows < SCAN_ROWS + 10) {
            throw new IllegalArgumentException("--rows: at least " + (SCAN_ROWS + 10) + ", got " + rows);
        }
        Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
        ReadLoad load = new ReadLoad(connection, rows);
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                    .build());
            List<Put> puts = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < rows; i++) {
                puts.add(new Put(MixedLoad.row(i)).addColumn(FAMILY, QUALIFIER, value(random)));
                if (puts.size() == 1000 || i == rows / 2 - 1 || i == rows - 1) {
                    load.table.put(puts);
                    puts.clear();
                }
                if (i == rows / 2 - 1 || i == rows - 1) {
                    admin.flush(TABLE); // two files, so that one file afterwards says the compaction ran
                }
            }
            admin.majorCompact(TABLE);
            awaitCompacted(admin);
        }
        try (ResultScanner scanner = load.table.getScanner(new Scan().setCaching(500))) {
            scanner.forEach(r -> {});
        }
        return load;
    }

    /**
     * Waits until the table's major compaction has run: its state is NONE again and its two flushed
     * files are one (the state alone is NONE too while the request is still queued).
     */
    private static void awaitCompacted(Admin admin) throws IOException {
        Instant deadline = Instant.now().plus(COMPACTION_TIMEOUT);
        while (admin.getCompactionState(TABLE) != CompactionState.NONE || !compactionDone(admin)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the major compaction did not end within " + COMPACTION_TIMEOUT
                        + ": state " + admin.getCompactionState(TABLE) + ", store files " + storeFiles(admin));
            }
            RegionServerProcess.sleep(200);
        }
    }

    private static boolean compactionDone(Admin admin) throws IOException {
        List<Integer> files = storeFiles(admin);
        return !files.isEmpty() && files.stream().allMatch(n -> n == 1);
    }

    /** The store files of each of the table's regions. */
    private static List<Integer> storeFiles(Admin admin) throws IOException {
        List<Integer> files = new ArrayList<>();
        for (ServerName server : admin.getRegionServers()) {
            for (RegionMetrics region : admin.getRegionMetrics(server, TABLE)) {
                files.add(region.getStoreFileCount());
            }
        }
        return files;
    }

    /** The version the server reports. */
    String hbaseVersion() throws IOException {
        try (Admin admin = connection.getAdmin()) {
            return admin.getClusterMetrics().getHBaseVersion();
        }
    }

    /** Starts {@code count} client threads. */
    void start(int count) {
        for (int t = 0; t < count; t++) {
            long seed = 1000 + t;
            Thread thread = new Thread(() -> run(new SplittableRandom(seed)), "read-load-" + t);
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
                once(step % 4, random);
                operations.incrementAndGet();
            } catch (IOException | RuntimeException e) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, e);
            }
        }
    }

    private void once(int kind, SplittableRandom random) throws IOException {
        int first = random.nextInt(rows - SCAN_ROWS);
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
                scan(new Scan().withStartRow(MixedLoad.row(first)).withStopRow(MixedLoad.row(first + SCAN_ROWS)));
                break;
            default:
                scan(new Scan()
                        .withStartRow(MixedLoad.row(first))
                        .withStopRow(MixedLoad.row(first + SCAN_ROWS))
                        .setFilter(new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator(NO_VALUE))));
        }
    }

    private void scan(Scan scan) throws IOException {
        try (ResultScanner scanner = table.getScanner(scan.setCaching(SCAN_ROWS))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                // read to the end
            }
        }
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
