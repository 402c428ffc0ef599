package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;

/**
 * Reads while the table changes: multi-gets and full scans while a writer adds 100-row batches of
 * 1 KB puts, a flush half-way, then a flush and a major compaction, every checkout tracked. Once
 * the load stops, no reference may stay outstanding and no checkout may be reported leaked.
 *
 * <p>The RPC server's buffer pool is off, so every block read from disk lands in a heap buffer (as
 * blocks below {@code hbase.server.allocator.minimal.allocate.size} do, and all of them once the
 * pool is exhausted): HBase caches such a block as an {@code ExclusiveMemHFileBlock}, which a hit
 * takes from the BucketCache's RAM cache until the cache's writer thread has copied it into a
 * bucket. Those hits hold no reference ({@code retain()}, {@code release()} and {@code refCnt()}
 * of that class are no-ops, 0) and scanners drop them without a release: counted as checkouts,
 * they stayed outstanding for good, and the tracked ones were reported as {@code gc} leaks where a
 * multi-get or the compaction had read them. The profile does not count them as checkouts; the
 * test checks that it met some.
 */
class RegionServerRefsAfterWritesTest {

    static final Duration LOAD = Duration.ofSeconds(20);
    /** A tracked checkout held longer than this is reported, with its site, as an age leak. */
    static final Duration LEAK_AGE = Duration.ofSeconds(10);

    @Test
    void readsDuringWritesFlushesAndACompactionGiveEveryReferenceBack() throws Exception {
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .agent("leak.sample=1,leak.rate=0,leak.age=" + LEAK_AGE.toSeconds() + "s")
                        // every block read from disk lands in a heap buffer (see the class comment)
                        .site("hbase.server.allocator.pool.enabled", "false")
                        // off by default in these tests; the admin's major compaction needs it on
                        .site("hbase.regionserver.compaction.enabled", "true")
                        .start();
                Workload workload = Workload.create(server, "changing");
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                Admin admin = connection.getAdmin()) {
            TableName name = TableName.valueOf("changing");
            Load load = new Load(workload, connection, name);
            Instant start = Instant.now();
            load.start();
            RegionServerProcess.sleep(LOAD.toMillis() / 2);
            admin.flush(name);
            RegionServerProcess.sleep(LOAD.toMillis() / 4);
            admin.flush(name);
            admin.majorCompact(name);
            Compactions.await(admin, name);
            RegionServerProcess.sleep(Math.max(0, start.plus(LOAD).toEpochMilli() - System.currentTimeMillis()));
            load.stop();
            System.out.printf(
                    "[refs-after-writes] %d rows written, %d full scans, %d multi-gets in %d s%n",
                    load.written.get(),
                    load.scans.get(),
                    load.multiGets.get(),
                    Duration.between(start, Instant.now()).toSeconds());

            Scrape settled = awaitNothingOutstanding(server);
            double hits = settled.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2");
            double returns = settled.value("blockscope_block_cache_returns_total", "tier", "l2");
            double outstanding = settled.value("blockscope_block_refs_outstanding", "tier", "l2");
            // hits that are not checkouts: heap blocks from the RAM cache, which take no reference
            double heapHits = hits - returns - outstanding;
            System.out.printf(
                    "[refs-after-writes] l2 hits %.0f, returned %.0f, heap blocks (no reference taken) %.0f,"
                            + " outstanding %.0f%n",
                    hits, returns, heapHits, outstanding);
            assertAll(
                    () -> assertEquals(List.of(), load.errors, "client errors during the load"),
                    () -> assertTrue(load.written.get() >= 1000, "rows written: " + load.written),
                    () -> assertTrue(load.scans.get() > 0 && load.multiGets.get() > 0, "reads during the load"),
                    () -> assertTrue(heapHits > 0, "hits on heap blocks waiting in the RAM cache: " + heapHits),
                    () -> assertTrue(returns > 1000, "references given back: " + returns),
                    () -> assertEquals(
                            0,
                            outstanding,
                            "l2 references outstanding once the load stopped; leaked checkouts by site:\n"
                                    + settled.describe("blockscope_block_leaks_total")),
                    () -> assertEquals(
                            0,
                            settled.sum("blockscope_block_leaks_total", l -> true),
                            "no checkout garbage collected unreturned or held past leak.age:\n"
                                    + settled.describe("blockscope_block_leaks_total")));
        }
    }

    /**
     * The scrape once nothing is outstanding, or, after {@link #LEAK_AGE} and a bit, the one whose
     * leak counts name the sites of what stayed out.
     */
    private static Scrape awaitNothingOutstanding(RegionServerProcess server) {
        Instant deadline = Instant.now().plus(LEAK_AGE).plusSeconds(5);
        Scrape scrape = Scrape.of(server.metricsUri());
        while (scrape.value("blockscope_block_refs_outstanding", "tier", "l2") != 0
                && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(500);
            scrape = Scrape.of(server.metricsUri());
        }
        return scrape;
    }

    /** A writer, a multi-get reader and a full-scan reader, each on its own thread. */
    private static final class Load {
        final AtomicLong written = new AtomicLong();
        final AtomicLong scans = new AtomicLong();
        final AtomicLong multiGets = new AtomicLong();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();

        Load(Workload workload, Connection connection, TableName name) {
            threads.add(newThread(
                    () -> {
                        while (!stop.get()) {
                            workload.multiGets(5);
                            multiGets.addAndGet(5);
                        }
                        return null;
                    },
                    "multi-gets"));
            threads.add(newThread(
                    () -> {
                        try (Table table = connection.getTable(name)) {
                            while (!stop.get()) {
                                try (ResultScanner scanner = table.getScanner(new Scan().setCaching(500))) {
                                    for (Result result : scanner) {
                                        assertEquals(
                                                Workload.VALUE_BYTES,
                                                result.getValue(Workload.FAMILY, Workload.QUALIFIER).length);
                                    }
                                }
                                scans.incrementAndGet();
                            }
                        }
                        return null;
                    },
                    "full-scans"));
            threads.add(newThread(
                    () -> {
                        try (Table table = connection.getTable(name)) {
                            while (!stop.get()) {
                                List<Put> puts = new ArrayList<>();
                                for (int i = 0; i < 100; i++) {
                                    int row = Workload.ROWS + (int) written.getAndIncrement();
                                    puts.add(new Put(Workload.row(row))
                                            .addColumn(Workload.FAMILY, Workload.QUALIFIER, Workload.value(row)));
                                }
                                table.put(puts);
                                Thread.sleep(50);
                            }
                        }
                        return null;
                    },
                    "writer"));
        }

        void start() {
            threads.forEach(Thread::start);
        }

        void stop() throws InterruptedException {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(60_000);
            }
        }

        /** A thread body whose failure is kept for the test's assertion. */
        private interface Body {
            Void run() throws Exception;
        }

        private Thread newThread(Body body, String name) {
            return new Thread(
                    () -> {
                        try {
                            body.run();
                        } catch (Exception | AssertionError e) {
                            errors.add(e);
                        }
                    },
                    name);
        }
    }
}
