package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.hbasers.server.NestedReadObserver;
import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Whose copies they are, on a real RegionServer with the agent at its defaults: two tables in one
 * namespace, each read by its own user (simple authentication: the connection says who it is). The
 * copies of HBase's own {@code SingleColumnValueFilter} with a {@code RegexStringComparator} land on
 * the table it scanned and the user who scanned it, and nowhere else; with one handler thread, the
 * call after it (another user, another table) carries nothing of it; a compaction counts under its
 * table and the user {@code (compaction)}; a coprocessor's nested get of another table counts under
 * that table, and its scan under its own again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerCopyOwnersTest {

    /** Which release ran, for the figures printed. */
    String name() {
        return "2.6.4";
    }

    static final String NAMESPACE = "owners";
    static final String ORDERS = NAMESPACE + ":orders";
    static final String CARTS = NAMESPACE + ":carts";
    /** Read by alice; its coprocessor gets rows of {@link #CARTS} inside each of her scan RPCs. */
    static final String INVOICES = NAMESPACE + ":invoices";
    /** Rows of carts the coprocessor gets per scan RPC one by one, and as many again in one batch. */
    static final int NESTED_ROWS = 50;

    static final String BY_TABLE = "blockscope_copy_to_heap_bytes_by_table_total";
    static final String BY_USER = "blockscope_copy_to_heap_bytes_by_user_total";
    static final String SITE_BYTES = "blockscope_copy_site_bytes_total";
    static final String SITE_OWNERS = "blockscope_copy_site_owner_bytes_total";
    static final String TOTAL = "blockscope_copy_to_heap_bytes_total";
    /** The label value of copies outside any table or user. */
    static final String NONE = "(none)";

    private RegionServerProcess server;
    private Connection admin;
    private Connection alice;
    private Connection bob;

    /** The release under test: this module's own (2.6.4); {@link RegionServerCopyOwners25Test} runs 2.5. */
    RegionServerProcess.Builder release() throws Exception {
        return RegionServerProcess.builder();
    }

    @BeforeAll
    void start() throws Exception {
        server = release()
                .agent("")
                // one handler: every call below runs on the same pooled thread, one after the other
                .site("hbase.regionserver.handler.count", "1")
                .site("hbase.regionserver.compaction.enabled", "true")
                .start();
        admin = ConnectionFactory.createConnection(server.clientConfiguration());
        alice = connectionAs("alice");
        bob = connectionAs("bob");
        try (Admin a = admin.getAdmin()) {
            a.createNamespace(NamespaceDescriptor.create(NAMESPACE).build());
        }
        load(ORDERS);
        load(CARTS);
        // plain scans cache every block in the offheap BucketCache and copy no value
        assertEquals(Workload.ROWS, scan(alice, ORDERS, null));
        assertEquals(Workload.ROWS, scan(bob, CARTS, null));
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(alice, bob, admin, server);
    }

    @Test
    @Order(1)
    void aFiltersCopiesLandOnItsTableAndUserAndNowhereElse() throws Exception {
        LeakChecks.endpoint(server, "/live", "text/html"); // the live page samples from its first request
        Scrape before = scrape();
        assertEquals(0, scan(alice, ORDERS, regexDroppingEveryRow()));
        assertEquals(Workload.ROWS, scan(bob, CARTS, null), "bob reads his table plainly meanwhile");
        Scrape after = scrape();
        double total = delta(before, after, TOTAL, "component", "value");
        double orders = delta(before, after, BY_TABLE, "component", "value", "table", ORDERS);
        long expected = (long) Workload.ROWS * Workload.VALUE_BYTES;
        System.out.printf(
                name() + " copy owners: regex scan of %s by alice: %.0f value bytes in all, %.0f under the table, %.0f"
                        + " under alice (HBase copied at most %d)%n",
                ORDERS,
                total,
                orders,
                delta(before, after, BY_USER, "user", "alice"),
                expected);
        assertAll(
                () -> assertTrue(
                        total >= expected * 0.95 && total <= expected,
                        "the comparator's copies: " + total + " of " + expected),
                () -> assertEquals(
                        total, orders, "every value byte under " + ORDERS + ":\n" + after.describe(BY_TABLE)),
                () -> assertEquals(total, delta(before, after, BY_USER, "user", "alice"), after.describe(BY_USER)),
                () -> assertEquals(0, delta(before, after, BY_TABLE, "component", "value", "table", CARTS)),
                () -> assertEquals(0, delta(before, after, BY_USER, "user", "bob")),
                () -> assertEquals(
                        0,
                        after.sum(BY_TABLE, Scrape.label("table", "(none)"))
                                - before.sum(BY_TABLE, Scrape.label("table", "(none)")),
                        "no copy of these calls outside a table"));
        sitesNameTheirOwners(before, after);
        String lastCopy = "last sampled copy: table " + ORDERS + ", region "
                + Workload.onlyRegion(admin, TableName.valueOf(ORDERS));
        assertTrue(
                Poll.until(
                        Duration.ofSeconds(20),
                        () -> LeakChecks.endpoint(server, "/live", "text/html").contains(lastCopy)),
                "the live page names the region of the regex scan's last sampled copy: "
                        + LeakChecks.endpoint(server, "/live", "text/html"));
    }

    /**
     * The sampled copy sites by owner: the same samples as the sites (so the same bytes), every one
     * of them alice's on orders but what the server did outside any call meanwhile, none bob's.
     */
    private static void sitesNameTheirOwners(Scrape before, Scrape after) {
        double sites = after.sum(SITE_BYTES) - before.sum(SITE_BYTES);
        double owned = after.sum(SITE_OWNERS) - before.sum(SITE_OWNERS);
        double alices = sum(before, after, Scrape.label("table", ORDERS).and(Scrape.label("user", "alice")));
        double outside = sum(before, after, Scrape.label("user", "(none)"));
        System.out.printf(
                "copy owners: sampled site bytes %.0f, by owner %.0f: alice on %s %.0f, outside calls %.0f%n",
                sites, owned, ORDERS, alices, outside);
        assertAll(
                () -> assertTrue(alices > 0, "the regex scan's sampled copies: " + after.describe(SITE_OWNERS)),
                () -> assertEquals(sites, owned, 0.01 * sites, "the same samples, by owner"),
                () -> assertEquals(owned, alices + outside, after.describe(SITE_OWNERS)),
                () -> assertEquals(0, sum(before, after, Scrape.label("user", "bob")), "bob copied nothing"),
                () -> assertEquals(0, sum(before, after, Scrape.label("table", CARTS)), "nothing on carts"));
    }

    private static double sum(Scrape before, Scrape after, Predicate<Map<String, String>> owner) {
        return after.sum(SITE_OWNERS, owner) - before.sum(SITE_OWNERS, owner);
    }

    @Test
    @Order(2)
    void theHandlerServingOneUsersTableDoesNotCarryItIntoTheNextCall() throws Exception {
        Scrape before = scrape();
        // one handler thread: alice's copying scan of orders, then bob's of carts, call after call
        assertEquals(0, scan(alice, ORDERS, regexDroppingEveryRow()));
        Scrape between = scrape();
        assertEquals(0, scan(bob, CARTS, regexDroppingEveryRow()));
        Scrape after = scrape();
        double bobs = delta(between, after, TOTAL, "component", "value");
        assertTrue(bobs >= Workload.ROWS * Workload.VALUE_BYTES * 0.95, "bob's scan copied: " + bobs);
        assertAll(
                () -> assertEquals(bobs, delta(between, after, BY_TABLE, "component", "value", "table", CARTS)),
                () -> assertEquals(bobs, delta(between, after, BY_USER, "user", "bob")),
                () -> assertEquals(
                        0,
                        delta(between, after, BY_TABLE, "component", "value", "table", ORDERS),
                        "nothing of bob's call under alice's table"),
                () -> assertEquals(
                        0, delta(between, after, BY_USER, "user", "alice"), "nothing of bob's call under alice"),
                () -> assertEquals(
                        delta(before, between, TOTAL, "component", "value"),
                        delta(before, between, BY_USER, "user", "alice")));
    }

    @Test
    @Order(3)
    void aCompactionCountsUnderItsTableAndTheCompactionUser() throws Exception {
        Scrape before = scrape();
        // a second file, then a major compaction rewrites both
        load(ORDERS);
        try (Admin a = admin.getAdmin()) {
            a.majorCompact(TableName.valueOf(ORDERS));
            long deadline = System.nanoTime() + 60_000_000_000L;
            Thread.sleep(500);
            while (a.getCompactionState(TableName.valueOf(ORDERS))
                            != org.apache.hadoop.hbase.client.CompactionState.NONE
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }
        Scrape after = scrape();
        double compaction = delta(before, after, BY_USER, "user", "(compaction)");
        double ordersAll = after.sum(BY_TABLE, Scrape.label("table", ORDERS))
                - before.sum(BY_TABLE, Scrape.label("table", ORDERS));
        System.out.printf(
                name()
                        + " copy owners: compaction of %s: %.0f bytes under (compaction), %.0f under the table;%n%s%n%s%n",
                ORDERS,
                compaction,
                ordersAll,
                after.describe(BY_USER),
                after.describe(BY_TABLE));
        // the load's puts copy by design only: every copy of the table here is the compaction's
        assertTrue(compaction > 0, "the major compaction copied keys of its cells: " + compaction);
        assertEquals(compaction, ordersAll, "a compaction's copies are its table's");
        assertEquals(0, delta(before, after, BY_USER, "user", "bob"));
        assertEquals(0, delta(before, after, BY_USER, "user", "alice"));
    }

    /**
     * A coprocessor on invoices gets rows of carts from inside alice's scan of invoices: the nested
     * gets' copies count under carts, and every copy of the scan after each nested read under
     * invoices again. Single gets run on the handler thread (HBase 2's short-circuit connection) and
     * count under alice; a batch runs on the connection's pool threads, outside any call: user
     * (none).
     */
    @Test
    @Order(4)
    void aCoprocessorsNestedGetCountsUnderItsTableAndTheScanResumesUnderItsOwn() throws Exception {
        TableName invoices = TableName.valueOf(INVOICES);
        try (Admin a = admin.getAdmin()) {
            a.createTable(TableDescriptorBuilder.newBuilder(invoices)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                    .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(NestedReadObserver.class.getName())
                            .setProperty(NestedReadObserver.TABLE, CARTS)
                            .setProperty(NestedReadObserver.ROW_FORMAT, Workload.ROW_FORMAT)
                            .setProperty(NestedReadObserver.ROWS, Integer.toString(2 * NESTED_ROWS))
                            .setProperty(NestedReadObserver.FAMILY, Bytes.toString(Workload.FAMILY))
                            .setProperty(NestedReadObserver.QUALIFIER, Bytes.toString(Workload.QUALIFIER))
                            .build())
                    .build());
        }
        load(INVOICES);
        // plain scans (each with its nested gets, which copy carts' values) cache invoices' blocks
        assertEquals(Workload.ROWS, scan(alice, INVOICES, null));
        assertEquals(Workload.ROWS, scan(alice, INVOICES, null));
        Scrape before = scrape();
        assertEquals(0, scan(alice, INVOICES, regexDroppingEveryRow()));
        Scrape after = scrape();
        double total = delta(before, after, TOTAL, "component", "value");
        double invoiced = delta(before, after, BY_TABLE, "component", "value", "table", INVOICES);
        double carts = delta(before, after, BY_TABLE, "component", "value", "table", CARTS);
        long scanned = (long) Workload.ROWS * Workload.VALUE_BYTES;
        long perNestedRead = (long) NESTED_ROWS * Workload.VALUE_BYTES;
        long nestedReads = Math.round(carts / (2.0 * perNestedRead));
        double alices = delta(before, after, BY_USER, "user", "alice");
        double none = delta(before, after, BY_USER, "user", NONE);
        System.out.printf(
                name() + " copy owners: alice's regex scan of %s with nested gets of %s: %.0f value bytes in all, %.0f"
                        + " under %s (its scan copied at most %d), %.0f under %s (%d nested reads of 2 x %d B);"
                        + " %.0f under alice, %.0f under %s%n",
                INVOICES,
                CARTS,
                total,
                invoiced,
                INVOICES,
                scanned,
                carts,
                CARTS,
                nestedReads,
                perNestedRead,
                alices,
                none,
                NONE);
        double nested = nestedReads * perNestedRead;
        assertAll(
                () -> assertTrue(
                        invoiced >= scanned * 0.95 && invoiced <= scanned,
                        "the scan's copies stay under " + INVOICES + " after each nested get: " + invoiced + " of "
                                + scanned + "\n" + after.describe(BY_TABLE)),
                () -> assertTrue(
                        nestedReads >= 1 && Math.abs(carts - 2 * nested) <= 0.05 * 2 * nested,
                        "the nested gets' copies, whole reads of 2 x " + perNestedRead + " B (one per scan RPC), under "
                                + CARTS + ": " + carts),
                () -> assertEquals(
                        total, invoiced + carts, "nothing under another table:\n" + after.describe(BY_TABLE)),
                () -> assertEquals(0, delta(before, after, BY_TABLE, "component", "value", "table", ORDERS)),
                () -> assertEquals(
                        invoiced + nested,
                        alices,
                        0.05 * nested,
                        "the scan and its single nested gets, on the handler thread, are alice's: "
                                + after.describe(BY_USER)),
                () -> assertEquals(
                        nested,
                        none,
                        0.05 * nested,
                        "the nested batch, on the connection's pool threads, is no call's: " + after.describe(BY_USER)),
                () -> assertEquals(total, alices + none, "nobody else's"));
    }

    private Scrape scrape() {
        return Scrape.of(server.metricsUri());
    }

    private static double delta(Scrape before, Scrape after, String name, String... labels) {
        return after.count(name, labels) - before.count(name, labels);
    }

    private Connection connectionAs(String name) throws Exception {
        return Workload.connectionAs(server, name);
    }

    private void load(String name) throws IOException {
        TableName table = TableName.valueOf(name);
        try (Admin a = admin.getAdmin()) {
            if (!a.tableExists(table)) {
                a.createTable(TableDescriptorBuilder.newBuilder(table)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Workload.FAMILY))
                        .build());
            }
            try (Table t = admin.getTable(table)) {
                List<Put> puts = new ArrayList<>();
                for (int i = 0; i < Workload.ROWS; i++) {
                    puts.add(
                            new Put(Workload.row(i)).addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(i)));
                }
                t.put(puts);
            }
            a.flush(table);
        }
    }

    private static int scan(Connection connection, String name, Filter filter) throws IOException {
        int rows = 0;
        try (Table table = connection.getTable(TableName.valueOf(name));
                ResultScanner scanner =
                        table.getScanner(new Scan().setCaching(500).setFilter(filter))) {
            for (Result result : scanner) {
                assertEquals(Workload.VALUE_BYTES, result.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
                rows++;
            }
        }
        return rows;
    }

    private static SingleColumnValueFilter regexDroppingEveryRow() {
        return Workload.regexDroppingEveryRow();
    }
}
