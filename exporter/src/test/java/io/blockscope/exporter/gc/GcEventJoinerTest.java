package io.blockscope.exporter.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The join of pauses and heap summaries to their collection, in either arrival order. */
class GcEventJoinerTest {

    private PrometheusRegistry registry;
    private GcEventJoiner joiner;

    @BeforeEach
    void setUp() {
        registry = new PrometheusRegistry();
        joiner = new GcEventJoiner(
                new GcMetrics(registry, PrometheusProperties.builder().build()));
    }

    @Test
    void pausesBeforeTheirCollectionAreLabelledWhenItArrives() {
        joiner.onPause(7, 0.001);
        joiner.onPause(7, 0.002);
        joiner.onHeapSummary(7, true, 1000);
        assertEquals(0, pauseCount("Z", "Proactive"));
        joiner.onCollection(7, "Z", "Proactive");
        joiner.onHeapSummary(7, false, 400); // ZGC's "After GC" comes after the collection
        joiner.onPause(7, 0.003); // a straggler of a known collection is labelled at once
        assertEquals(3, pauseCount("Z", "Proactive"));
        assertEquals(0.006, pauseSum("Z", "Proactive"), 1e-12);
        assertEquals(1, value("blockscope_gc_collections", Labels.of("gc", "Z")));
        assertEquals(1000, value("blockscope_gc_heap_used_before_bytes", Labels.of("gc", "Z")));
        assertEquals(400, value("blockscope_gc_heap_used_after_bytes", Labels.of("gc", "Z")));
    }

    @Test
    void waitingPausesAreBoundedOldestGivenUpFirst() {
        // 100 collections' pauses whose collection events are late (or lost): only the newest 64 wait.
        for (long id = 1; id <= 100; id++) {
            joiner.onPause(id, 0.001);
        }
        for (long id = 1; id <= 100; id++) {
            joiner.onCollection(id, "G1New", "G1 Evacuation Pause");
        }
        assertEquals(64, pauseCount("G1New", "G1 Evacuation Pause"));
        assertEquals(100, value("blockscope_gc_collections", Labels.of("gc", "G1New")));
    }

    @Test
    void causesAreBoundedToTheFirstTenPlusOther() {
        for (int i = 0; i < 15; i++) {
            joiner.onPause(i, 0.001);
            joiner.onCollection(i, "G1New", "cause " + i);
        }
        assertEquals(1, pauseCount("G1New", "cause 9"));
        assertEquals(0, pauseCount("G1New", "cause 10"));
        assertEquals(5, pauseCount("G1New", "other"));
    }

    private double pauseCount(String gc, String cause) {
        for (HistogramSnapshot.HistogramDataPointSnapshot p : histogram().getDataPoints()) {
            if (p.getLabels().equals(Labels.of("cause", cause, "gc", gc))) {
                return p.getCount();
            }
        }
        return 0;
    }

    private double pauseSum(String gc, String cause) {
        for (HistogramSnapshot.HistogramDataPointSnapshot p : histogram().getDataPoints()) {
            if (p.getLabels().equals(Labels.of("cause", cause, "gc", gc))) {
                return p.getSum();
            }
        }
        return 0;
    }

    private HistogramSnapshot histogram() {
        return (HistogramSnapshot) snapshot("blockscope_gc_pause_seconds");
    }

    private double value(String name, Labels labels) {
        MetricSnapshot s = snapshot(name);
        if (s instanceof CounterSnapshot) {
            for (CounterSnapshot.CounterDataPointSnapshot p : ((CounterSnapshot) s).getDataPoints()) {
                if (p.getLabels().equals(labels)) {
                    return p.getValue();
                }
            }
        } else {
            for (GaugeSnapshot.GaugeDataPointSnapshot p : ((GaugeSnapshot) s).getDataPoints()) {
                if (p.getLabels().equals(labels)) {
                    return p.getValue();
                }
            }
        }
        return Double.NaN;
    }

    private MetricSnapshot snapshot(String name) {
        return registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
