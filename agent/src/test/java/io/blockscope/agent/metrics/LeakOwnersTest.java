package io.blockscope.agent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.FreshThread;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.Where;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Whose leaks they are: a leak counts under the table the thread that took the block worked for. */
class LeakOwnersTest {

    private static final Duration LEAK_AGE = Duration.ofMillis(1);

    private final Hbase2Metrics agent = new Hbase2Metrics(LEAK_AGE, 20);
    private final PrometheusRegistry registry = agent.registry;
    private final Recorder recorder = agent.recorder;

    @Test
    void aPooledThreadsLeakCountsUnderTheTableThatTookItNotTheNextCallsOne() throws Exception {
        Context.configure(2, 2, call -> call);
        agent.attach();
        Object leakedOnA = new Object();
        Object returnedOnB = new Object();
        Object leakedOutsideTables = new Object();
        FreshThread.run(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:a", null);
            recorder.checkout(0, leakedOnA); // never returned
            Context.regionEnd();
            Context.restore(saved, null);
            saved = Context.callStart("bob");
            recorder.checkout(0, leakedOutsideTables); // before the call named its region
            Context.regionStart("ns:b", null);
            recorder.checkout(0, returnedOnB);
            recorder.returned(0, returnedOnB);
            Context.regionEnd();
            Context.restore(saved, null);
        });
        Thread.sleep(20); // well past leak.age
        Map<String, Double> byTable = leaksByTable(registry.scrape());
        assertEquals(
                Map.of(
                        "checkout/age/ns:a",
                        1.0,
                        "checkout/gc/ns:a",
                        0.0,
                        "checkout/age/(none)",
                        1.0,
                        "checkout/gc/(none)",
                        0.0),
                byTable,
                "b returned its block: no series");
        Reference.reachabilityFence(leakedOnA); // age leaks, not collected ones
        Reference.reachabilityFence(leakedOutsideTables);
    }

    @Test
    void tablesPastTheCapLeakUnderOther() throws Exception {
        Context.configure(1, 1, call -> call);
        agent.attach();
        Object[] blocks = new Object[3];
        FreshThread.run(() -> {
            for (int i = 0; i < blocks.length; i++) {
                long saved = Context.callStart("carol");
                Context.regionStart("t" + i, null);
                blocks[i] = new Object();
                recorder.checkout(0, blocks[i]);
                Context.regionEnd();
                Context.restore(saved, null);
            }
        });
        Thread.sleep(20);
        Map<String, Double> byTable = leaksByTable(registry.scrape());
        assertEquals(1.0, byTable.get("checkout/age/default:t0"), "the default namespace spelled out: " + byTable);
        assertEquals(2.0, byTable.get("checkout/age/other"), byTable.toString());
        assertEquals(4, byTable.size(), byTable.toString());
        Reference.reachabilityFence(blocks);
    }

    @Test
    void aLeakSitesSeriesCarriesItsLastRegionAsAnExemplar() throws Exception {
        Context.configure(2, 2, call -> call);
        agent.attach();
        Object leakedOnA = new Object();
        FreshThread.run(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:a", "0123456789abcdef0123456789abcdef");
            recorder.checkout(0, leakedOnA); // never returned
            Context.regionEnd();
            Context.restore(saved, null);
        });
        Thread.sleep(20); // well past leak.age
        List<CounterDataPointSnapshot> points = registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals("blockscope_block_leaks"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .collect(Collectors.toList());
        CounterDataPointSnapshot age = points.stream()
                .filter(p -> "age".equals(p.getLabels().get("reason")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no age leak: " + points));
        assertEquals(1.0, age.getValue());
        assertEquals(
                Labels.of("region", "0123456789abcdef0123456789abcdef", "table", "ns:a"),
                age.getExemplar().getLabels(),
                "the region and table of the site's last leak");
        CounterDataPointSnapshot gc = points.stream()
                .filter(p -> "gc".equals(p.getLabels().get("reason")))
                .findFirst()
                .orElseThrow();
        assertNull(gc.getExemplar(), "no leak of that reason: no exemplar");
        String openMetrics = openMetrics(registry);
        assertTrue(
                openMetrics.contains("# {region=\"0123456789abcdef0123456789abcdef\",table=\"ns:a\"} 1.0"),
                openMetrics);
        Reference.reachabilityFence(leakedOnA);
    }

    @Test
    void anExemplarKeepsToOpenMetricsLimit() {
        Context.configure(2, 2, call -> call);
        String longTable = "ns:" + "t".repeat(100);
        int table = Context.tables().id(longTable);
        int column = LeakReport.column(LeakReport.Kind.BUFFER, LeakReport.AGE);
        String region = "0123456789abcdef0123456789abcdef";
        Where last = new Where(column, 1, table, region, 1L);
        assertEquals(Labels.of("region", region), Exemplars.of(last, column).getLabels(), "the region alone fits");
        assertNull(Exemplars.of(last, LeakReport.column(LeakReport.Kind.BUFFER, LeakReport.GC)));
        assertNull(Exemplars.of(new Where(column, 1, table, "r".repeat(130), 1L), column), "too long: none");
    }

    private static String openMetrics(PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new OpenMetricsTextFormatWriter(false, false).write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theLeakLogNamesTheTableAndItsRegion() {
        Context.configure(2, 2, call -> call);
        int table = Context.tables().id("ns:a");
        assertEquals(" for table ns:a, region 1588230740", LeakReport.tableNote(table, "1588230740"));
        assertEquals(" for table ns:a", LeakReport.tableNote(table, null), "a profile that names no region");
        assertEquals("", LeakReport.tableNote(0, "1588230740"), "outside tables: nothing");
    }

    /** {@code kind/reason/table} to the count. */
    private static Map<String, Double> leaksByTable(MetricSnapshots snapshots) {
        Map<String, Double> out = new TreeMap<>();
        snapshots.stream()
                .filter(s -> s.getMetadata().getName().equals("blockscope_block_leaks_by_table"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .forEach(p -> out.put(
                        p.getLabels().get("kind") + "/" + p.getLabels().get("reason") + "/"
                                + p.getLabels().get("table"),
                        p.getValue()));
        return out;
    }
}
