package io.blockscope.agenttest.leaks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.metrics.AgentMetrics;
import io.blockscope.agent.metrics.LeakReport;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.ProfileParser;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A pool's buffers are checkouts of a tier of their own: a leaked one is counted with
 * {@code kind="buffer"}, named by the code that took it (the first frame outside the allocator),
 * and the pool's tier stays out of the block cache's series. Outside the agent's package, so the
 * test's own frames can be sites.
 */
class BufferLeaksTest {

    private static final Profile PROFILE = ProfileParser.parse("""
            {"name": "pooled", "probes": [
               {"name": "get", "kind": "block-get", "types": ["a.Cache"], "methods": ["get"], "tier": "l2"},
               {"name": "release", "kind": "block-return", "types": ["a.Block"], "methods": ["release()"],
                "value": "this", "returns": "checked-out", "tier": "l2"},
               {"name": "take", "kind": "buffer-take", "types": ["io.blockscope.agenttest.leaks.BufferLeaksTest$Pool"],
                "methods": ["take()"], "value": "return", "tier": "pool"},
               {"name": "put", "kind": "buffer-return", "types": ["io.blockscope.agenttest.leaks.BufferLeaksTest$Pool"],
                "methods": ["put(java.lang.Object)"], "value": "arg0", "tier": "pool"}
             ]}
            """, "test");
    private static final int L2 = PROFILE.tiers().indexOf("l2");
    private static final int POOL = PROFILE.tiers().indexOf("pool");

    private final LeakReport leaks = new LeakReport(20, PROFILE.tiers(), PROFILE.bufferTiers(), Duration.ofMinutes(10));
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final AgentMetrics metrics = new AgentMetrics(PROFILE, new ProbeStatus(PROFILE), "test", leaks, registry);
    private final Recorder recorder = new Recorder(
            new SiteResolver(List.of()),
            new SiteResolver(List.of(Pool.class.getName())),
            4096,
            0,
            Duration.ofMinutes(10),
            false,
            20,
            PROFILE.probes().size(),
            metrics,
            leaks);

    /** Stands for a server's allocator: the site of a buffer is its caller. */
    final class Pool {
        Object take() {
            Object buffer = new byte[16];
            recorder.checkout(POOL, buffer);
            return buffer;
        }
    }

    BufferLeaksTest() {
        boolean[] bufferTiers = new boolean[PROFILE.tiers().size()];
        bufferTiers[POOL] = true;
        recorder.bufferTiers(bufferTiers);
        metrics.attach(recorder);
    }

    @Test
    void aPoolsTierIsABufferTierAndNotACacheTier() {
        assertEquals(List.of("l2", "pool"), PROFILE.tiers());
        assertTrue(leaks.bufferTier(POOL));
        assertTrue(!leaks.bufferTier(L2));
        MetricSnapshots scrape = registry.scrape();
        assertEquals(List.of(), points(scrape, "blockscope_block_cache_gets", l -> "pool".equals(l.get("tier"))));
        assertEquals(List.of(), points(scrape, "blockscope_block_refs_outstanding", l -> "pool".equals(l.get("tier"))));
        assertEquals(
                1,
                points(scrape, "blockscope_block_refs_outstanding", l -> "l2".equals(l.get("tier")))
                        .size());
        assertEquals(
                1,
                points(scrape, "blockscope_block_hold_seconds", l -> "l2".equals(l.get("tier")))
                        .size());
        assertEquals(List.of(), points(scrape, "blockscope_block_hold_seconds", l -> "pool".equals(l.get("tier"))));
    }

    @Test
    void aBufferCollectedUntakenBackIsABufferLeakNamedByItsTaker() throws InterruptedException {
        takeAndDrop();
        Object kept = new Pool().take();
        recorder.returned(POOL, kept); // given back: no leak
        Object block = new Object();
        recorder.checkout(L2, block);
        recorder.returned(L2, block);
        List<DataPointSnapshot> buffers = List.of();
        for (int i = 0; i < 50 && buffers.isEmpty(); i++) {
            System.gc();
            Thread.sleep(20);
            buffers = points(
                    registry.scrape(),
                    "blockscope_block_leaks",
                    l -> "buffer".equals(l.get("kind"))
                            && "gc".equals(l.get("reason"))
                            && l.get("site").startsWith(BufferLeaksTest.class.getName() + ".takeAndDrop:"));
        }
        assertEquals(1, buffers.size(), "one buffer leak at the taker's frame");
        assertEquals(
                1.0,
                ((io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot) buffers.get(0))
                        .getValue());
        MetricSnapshots scrape = registry.scrape();
        assertEquals(
                List.of(),
                points(scrape, "blockscope_block_leaks", l -> "checkout".equals(l.get("kind"))),
                "no checkout leaked: its kind has no series");
        assertEquals(
                2,
                points(scrape, "blockscope_block_leaks", l -> "buffer".equals(l.get("kind")))
                        .size(),
                "the kind that leaked has both reasons");
    }

    private void takeAndDrop() {
        new Pool().take();
    }

    private static List<DataPointSnapshot> points(
            MetricSnapshots scrape, String name, Predicate<java.util.Map<String, String>> labels) {
        List<DataPointSnapshot> out = new ArrayList<>();
        for (MetricSnapshot metric : scrape) {
            if (!metric.getMetadata().getName().equals(name)) {
                continue;
            }
            for (DataPointSnapshot point : metric.getDataPoints()) {
                java.util.Map<String, String> map = new java.util.HashMap<>();
                point.getLabels().forEach(l -> map.put(l.getName(), l.getValue()));
                if (labels.test(map)) {
                    out.add(point);
                }
            }
        }
        return out;
    }
}
