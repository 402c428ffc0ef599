package io.blockscope.hbasers;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A steady read-only load on one table: {@link MixedLoad}'s reads without its puts. Each client
 * thread repeats a get, a 10-row multi-get, a 50-row scan and a 50-row scan through {@code
 * ValueFilter} + {@code RegexStringComparator}. The table is written, flushed and major-compacted to
 * one file before the load starts, so nothing flushes or compacts while it runs.
 */
final class ReadLoad implements AutoCloseable {

    static final TableName TABLE = TableName.valueOf("reads");
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");

    private static final Duration COMPACTION_TIMEOUT = Duration.ofSeconds(120);

    private final Connection connection;
    private final Table table;
    private final int rows;
    private final LoadThreads threads = new LoadThreads();

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
        if (rows < Reads.SCAN_ROWS + 10) {
            throw new IllegalArgumentException("--rows: at least " + (Reads.SCAN_ROWS + 10) + ", got " + rows);
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
                puts.add(new Put(MixedLoad.row(i)).addColumn(FAMILY, QUALIFIER, Reads.value(random)));
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
        threads.start(
                count,
                "read-load",
                (step, random) -> Reads.read(table, step % Reads.KINDS, random.nextInt(rows - Reads.SCAN_ROWS)));
    }

    /** The client threads: calls completed and failed. */
    LoadThreads threads() {
        return threads;
    }

    @Override
    public void close() throws IOException {
        threads.stop();
        table.close();
        connection.close();
    }
}
