package io.blockscope.agent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.FreshThread;
import io.blockscope.agent.record.Recorder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Whose copies a site makes: a sampled copy counts under its site and the table and user the copying
 * thread worked for, so one hot site serving two applications shows each one's share.
 */
class CopySiteOwnersTest {

    private static final Duration LEAK_AGE = Duration.ofSeconds(60);

    private final Hbase2Metrics agent = new Hbase2Metrics(LEAK_AGE, 3);
    private final PrometheusRegistry registry = agent.registry;
    private final Recorder recorder = agent.recorder;

    @Test
    void aSitesCopiesCountUnderTheTableAndUserOfEachCall() throws Exception {
        Context.configure(4, 4, call -> call);
        agent.attach();
        FreshThread.run(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:orders", null);
            recorder.copy(0, 0, 100, 1, 3_000); // a sampled copy standing for 3,000 bytes
            recorder.copy(0, 0, 100, 1, 1_000);
            Context.regionEnd();
            Context.restore(saved, null);
            saved = Context.callStart("bob"); // the same pooled thread, the next call
            Context.regionStart("carts", null);
            recorder.copy(0, 0, 100, 1, 500);
            Context.regionEnd();
            Context.restore(saved, null);
            recorder.copy(0, 0, 100, 1, 7); // outside any call
        });
        String site = site(registry.scrape());
        assertEquals(
                Map.of(
                        site + "|ns:orders|alice", 4_000.0,
                        site + "|default:carts|bob", 500.0,
                        site + "|(none)|(none)", 7.0),
                owners(registry.scrape()));
    }

    @Test
    void aSitesBytesCarryTheRegionAndTableOfItsLastSampledCopyAsAnExemplar() throws Exception {
        Context.configure(4, 4, call -> call);
        agent.attach();
        FreshThread.run(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:orders", "aaaa");
            recorder.copy(0, 0, 100, 1, 3_000);
            Context.regionEnd();
            Context.restore(saved, null);
            saved = Context.callStart("bob");
            Context.regionStart("carts", "bbbb");
            recorder.copy(0, 0, 100, 1, 500); // the same site, last
            Context.regionEnd();
            Context.restore(saved, null);
        });
        CounterDataPointSnapshot bytes = registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals("blockscope_copy_site_bytes"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .findFirst()
                .orElseThrow();
        assertEquals(3_500.0, bytes.getValue());
        assertEquals(
                Labels.of("region", "bbbb", "table", "default:carts"),
                bytes.getExemplar().getLabels());
        assertEquals(500.0, bytes.getExemplar().getValue(), "the last sample's bytes");
    }

    /** Beyond the sites cap (3 here) the rest lands under other, for all three labels, and adds up. */
    @Test
    void ownersBeyondTheCapAddUpUnderOther() throws Exception {
        Context.configure(8, 8, call -> call);
        agent.attach();
        FreshThread.run(() -> {
            for (int t = 0; t < 5; t++) {
                long saved = Context.callStart("u" + t);
                Context.regionStart("ns:t" + t, null);
                recorder.copy(0, 0, 10, 1, 10L * (t + 1));
                Context.regionEnd();
                Context.restore(saved, null);
            }
        });
        Map<String, Double> owners = owners(registry.scrape());
        assertEquals(4, owners.size(), owners.toString());
        assertEquals(
                150.0, owners.values().stream().mapToDouble(Double::doubleValue).sum(), owners.toString());
        assertEquals(90.0, owners.get("other|other|other"), owners.toString());
    }

    private static String site(MetricSnapshots snapshots) {
        return points(snapshots).keySet().iterator().next().split("\\|")[0];
    }

    private static Map<String, Double> owners(MetricSnapshots snapshots) {
        return points(snapshots);
    }

    /** {@code site|table|user} to the bytes. */
    private static Map<String, Double> points(MetricSnapshots snapshots) {
        Map<String, Double> out = new TreeMap<>();
        snapshots.stream()
                .filter(s -> s.getMetadata().getName().equals("blockscope_copy_site_owner_bytes"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .forEach(p -> out.put(
                        p.getLabels().get("site") + "|" + p.getLabels().get("table") + "|"
                                + p.getLabels().get("user"),
                        p.getValue()));
        return out;
    }
}
