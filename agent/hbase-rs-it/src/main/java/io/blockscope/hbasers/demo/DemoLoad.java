package io.blockscope.hbasers.demo;

import io.blockscope.hbasers.server.CopyingValueFilter;
import io.blockscope.hbasers.server.LeakingObserver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
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
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One kind of load on table {@value #TABLE}, run by the demo in its own JVM until it is stopped:
 *
 * <pre>
 *   DemoLoad ZK_PORT setup ROWS   creates the table, loads ROWS rows of 1,000-byte values, flushes, exits
 *   DemoLoad ZK_PORT healthy      gets, 100-row multi-gets and full scans (zero-copy on an offheap cache)
 *   DemoLoad ZK_PORT copying      full scans through CopyingValueFilter (a copy per value, nothing sent back)
 *   DemoLoad ZK_PORT leak         5 Gets a second that have LeakingObserver keep a region scanner open
 *   DemoLoad ZK_PORT fix          has LeakingObserver close every scanner it keeps, exits
 * </pre>
 *
 * <p>Stopped (SIGTERM), a load finishes its current read and closes its scanner before the JVM exits:
 * a client killed mid-scan leaves its region scanner open on the RegionServer until the scanner lease
 * expires (60 s), holding a block the agent would rightly report as a leak.
 */
public final class DemoLoad {

    static final TableName TABLE = TableName.valueOf("blockscope_demo");
    static final byte[] FAMILY = Bytes.toBytes("f");
    static final byte[] QUALIFIER = Bytes.toBytes("q");
    static final int VALUE_BYTES = 1000;

    private static volatile boolean stopping;

    private DemoLoad() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: DemoLoad ZK_PORT setup ROWS | healthy | copying | leak | fix");
        }
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", "127.0.0.1");
        conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(args[0]));
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            try {
                main.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            String mode = args[1];
            if (mode.equals("setup")) {
                setup(connection, Integer.parseInt(args[2]));
                return;
            }
            try (Table table = connection.getTable(TABLE)) {
                int rows = rows(table);
                switch (mode) {
                    case "healthy":
                        healthy(table, rows);
                        break;
                    case "copying":
                        while (!stopping) {
                            scan(table, new Scan().setCaching(500).setFilter(new CopyingValueFilter(false)));
                        }
                        break;
                    case "leak":
                        while (!stopping) {
                            table.get(new Get(row(0)).setAttribute(LeakingObserver.LEAK, new byte[] {1}));
                            Thread.sleep(200);
                        }
                        break;
                    case "fix":
                        table.get(new Get(row(0)).setAttribute(LeakingObserver.CLOSE, new byte[] {1}));
                        break;
                    default:
                        throw new IllegalArgumentException(
                                "unknown mode '" + mode + "': setup, healthy, copying, leak or fix");
                }
            }
        }
    }

    static byte[] row(int i) {
        return Bytes.toBytes(String.format("row-%07d", i));
    }

    private static void setup(Connection connection, int rows) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                    .build());
            try (Table table = connection.getTable(TABLE)) {
                List<Put> puts = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    byte[] value = new byte[VALUE_BYTES];
                    for (int j = 0; j < value.length; j++) {
                        value[j] = (byte) (i * 31 + j);
                    }
                    puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value));
                    if (puts.size() == 1000) {
                        table.put(puts);
                        puts.clear();
                    }
                }
                table.put(puts);
            }
            // Reads then go through the block cache, as they do on a RegionServer whose data is in HFiles.
            admin.flush(TABLE);
        }
        System.out.println("loaded " + rows + " rows into " + TABLE + " and flushed them");
    }

    /** The rows of the table (its last row's number + 1), from a reversed one-row scan. */
    private static int rows(Table table) throws IOException {
        try (ResultScanner scanner =
                table.getScanner(new Scan().setReversed(true).setLimit(1))) {
            Result last = scanner.next();
            if (last == null) {
                throw new IllegalStateException(TABLE + " is empty: run setup first");
            }
            return Integer.parseInt(Bytes.toString(last.getRow()).substring(4)) + 1;
        }
    }

    private static void healthy(Table table, int rows) throws IOException {
        for (long round = 0; !stopping; round++) {
            for (int i = 0; i < 100; i++) {
                table.get(new Get(row((int) ((round * 100 + i) * 7919 % rows))));
            }
            List<Get> gets = new ArrayList<>();
            int first = (int) (round * 997 % Math.max(1, rows - 100));
            for (int i = 0; i < 100 && first + i < rows; i++) {
                gets.add(new Get(row(first + i)));
            }
            table.get(gets);
            scan(table, new Scan().setCaching(500));
        }
    }

    private static void scan(Table table, Scan scan) throws IOException {
        try (ResultScanner scanner = table.getScanner(scan)) {
            for (Result result = scanner.next(); result != null && !stopping; result = scanner.next()) {
                // reading is the load
            }
        }
    }
}
