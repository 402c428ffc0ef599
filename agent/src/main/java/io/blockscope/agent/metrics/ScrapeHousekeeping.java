package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Counter;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.StuckBuffers;
import io.blockscope.agent.record.StuckCheckouts;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The lazy work each scrape drives, done before the agent's series are read so that they include
 * it: leak checks of the sampled checkouts (collected blocks and blocks held past leak.age), the
 * counts of pool buffers and checkouts stuck past leak.age (which may switch on dense sampling of
 * takes), the
 * first log line of each probe's advice errors, and retiring the counter rows of ended threads.
 * Scrapes drive it so that the host's threads never pay for it and no timer thread is needed.
 */
final class ScrapeHousekeeping implements MultiCollector {

    private final AgentMetrics series;
    private final AdviceErrorLog adviceErrors;

    ScrapeHousekeeping(AgentMetrics series, AdviceErrorLog adviceErrors) {
        this.series = series;
        this.adviceErrors = adviceErrors;
    }

    @Override
    public MetricSnapshots collect() {
        Recorder recorder = series.recorder();
        if (recorder != null) {
            recorder.checkLeaks();
        }
        StuckBuffers stuck = series.stuckBuffers();
        if (stuck != null) {
            stuck.check(System.nanoTime());
        }
        StuckCheckouts stuckCheckouts = series.stuckCheckouts();
        if (stuckCheckouts != null) {
            stuckCheckouts.check(System.nanoTime());
        }
        adviceErrors.logNew();
        // ended threads' counter rows fold into the totals (unchanged) and free their slots
        Counter.retireDeadThreads();
        return series.collect();
    }
}
