package io.blockscope.agent.metrics;

import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;

/**
 * An hbase2 agent's metrics and recorder on a registry of their own, for the tests of the families
 * the context probes feed. The test configures {@code Context} first, then calls {@link #attach}.
 */
final class Hbase2Metrics {

    final Profile profile = Profiles.load("hbase2");
    final PrometheusRegistry registry = new PrometheusRegistry();
    final AgentMetrics metrics;
    final Recorder recorder;

    Hbase2Metrics(Duration leakAge, int siteLabels) {
        LeakReport leaks = new LeakReport(20, profile.tiers(), leakAge);
        metrics = new AgentMetrics(profile, new ProbeStatus(profile), "test", leaks, registry);
        recorder = new Recorder(
                new SiteResolver(List.of()),
                64,
                leakAge,
                false,
                siteLabels,
                profile.probes().size(),
                metrics,
                leaks);
    }

    void attach() {
        metrics.attach(recorder);
    }
}
