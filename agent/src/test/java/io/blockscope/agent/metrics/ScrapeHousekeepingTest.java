package io.blockscope.agent.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The registry holds the housekeeping, which does a scrape's lazy work before the agent's series
 * are read: a leak is counted in the very scrape that finds it, while the series alone only read.
 */
class ScrapeHousekeepingTest {

    private static final Duration LEAK_AGE = Duration.ofMillis(1);

    private final Profile profile = Profiles.load("example-server");
    private final LeakReport leaks = new LeakReport(20, profile.tiers(), LEAK_AGE);
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final AgentMetrics metrics = new AgentMetrics(profile, new ProbeStatus(profile), "test", leaks, registry);

    @Test
    void aBlockHeldPastLeakAgeIsCountedByTheScrapeThatChecksItButNotByTheSeriesAlone() throws Exception {
        SiteResolver sites = new SiteResolver(List.of());
        Recorder recorder =
                new Recorder(sites, 64, LEAK_AGE, false, 20, profile.probes().size(), metrics, leaks);
        metrics.attach(recorder);
        Object block = new Object();
        recorder.checkout(0, block);
        Thread.sleep(20); // well past leak.age
        assertEquals(0, ageLeaks(metrics.collect()), "the series read what was found, they check nothing");
        assertEquals(1, ageLeaks(registry.scrape()), "the scrape checks first, then reads");
        assertEquals(1, ageLeaks(metrics.collect()), "and the leak stays counted");
        Reference.reachabilityFence(block); // an age leak, not a collected one
    }

    @Test
    void aScrapeBeforeTheRecorderIsAttachedServesTheAgentsSeries() {
        MetricSnapshots scraped = registry.scrape();
        assertTrue(
                scraped.stream().anyMatch(s -> s.getMetadata().getName().equals("blockscope_agent")),
                "the agent's info series");
        assertEquals(0, ageLeaks(scraped));
    }

    private static double ageLeaks(MetricSnapshots snapshots) {
        return snapshots.stream()
                .filter(s -> s.getMetadata().getName().equals("blockscope_block_leaks"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .filter(p -> "age".equals(p.getLabels().get("reason")))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }
}
