package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.StuckBuffers;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the agent had to leave out, as one counter, {@code blockscope_agent_dropped_total{what}},
 * so that no loss is silent. Each source keeps its own count where it happens (a {@code LongAdder}
 * on the hot path, a plain field under the lock a table already holds); this only sums them at
 * scrape time. All seven series are always present, so {@code rate()} sees a loss from its first one.
 */
final class DroppedData {

    /**
     * An occupancy or allocator-pool value left out of a scrape because its accessor threw (once per
     * value per scrape).
     */
    static final String OCCUPANCY_VALUE = "occupancy_value";
    /** Captures of a cache instance beyond the 64 per probe that occupancy reads (each capture counts). */
    static final String OCCUPANCY_INSTANCE = "occupancy_instance";
    /** Hits counted as plain hits because the checkout table was full: outstanding undercounts them. */
    static final String CHECKOUT_UNTRACKED = "checkout_untracked";
    /** Sampled checkouts not watched for leaks because the leak tracker's table was full. */
    static final String LEAK_UNTRACKED = "leak_untracked";
    /** Sampled checkouts not watched for leaks because the second's {@code leak.rate} budget was spent. */
    static final String LEAK_RATE_LIMITED = "leak_rate_limited";
    /** Pool buffer takes not held with their take time because that table was full: stuck may undercount. */
    static final String BUFFER_UNTRACKED = "buffer_untracked";
    /** Call sites that lost their own label to a hotter one; their counts moved into site="other". */
    static final String SITE_RETIRED = "site_retired";

    private final LongAdder occupancyValues = new LongAdder();

    void occupancyValuesLeftOut(int count) {
        if (count > 0) {
            occupancyValues.add(count);
        }
    }

    /** {@code recorder} is null until the agent has wired it: its sources then count 0. */
    CounterSnapshot snapshot(Recorder recorder, LeakReport leaks, StuckBuffers stuck) {
        long instances = recorder == null ? 0 : recorder.instances().ignored();
        long leakUntracked = recorder == null ? 0 : recorder.untrackedCheckouts();
        long leakRateLimited = recorder == null ? 0 : recorder.overBudgetCheckouts();
        long sitesRetired = leaks.sites().retired()
                + (recorder == null
                        ? 0
                        : recorder.copySites().retired()
                                + recorder.fallbackSites().retired());
        return CounterSnapshot.builder()
                .name("blockscope_agent_dropped")
                .help("Data the agent had to leave out, by what (docs/metrics.md says what each means).")
                .dataPoint(point(OCCUPANCY_VALUE, occupancyValues.sum()))
                .dataPoint(point(OCCUPANCY_INSTANCE, instances))
                .dataPoint(point(CHECKOUT_UNTRACKED, Counters.CHECKOUT_TABLE_FULL.sum()))
                .dataPoint(point(LEAK_UNTRACKED, leakUntracked))
                .dataPoint(point(LEAK_RATE_LIMITED, leakRateLimited))
                .dataPoint(point(BUFFER_UNTRACKED, stuck == null ? 0 : stuck.untracked()))
                .dataPoint(point(SITE_RETIRED, sitesRetired))
                .build();
    }

    private static CounterSnapshot.CounterDataPointSnapshot point(String what, long value) {
        return Points.counter(value, "what", what);
    }
}
