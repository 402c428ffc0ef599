package io.blockscope.exporter.gc;

import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The GC series of docs/metrics.md that both sources (JFR and the MXBean fallback) feed. Label
 * values arrive raw and are bounded here: {@code gc} to {@value #MAX_COLLECTORS} collectors, {@code
 * cause} to {@value #MAX_CAUSES} causes, each plus {@code other}.
 */
public final class GcMetrics {

    static final int MAX_COLLECTORS = 8;
    static final int MAX_CAUSES = 10;

    /**
     * Classic buckets from 50 µs (a ZGC pause) to 10 s (a full GC of a big heap gone wrong); the
     * native form has exponential buckets with no configuration.
     */
    private static final double[] PAUSE_BUCKETS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final Histogram pauses;
    private final Counter collections;
    private final Gauge heapBefore;
    private final Gauge heapAfter;
    private final Info source;
    private final BoundedLabel collectors = new BoundedLabel(MAX_COLLECTORS);
    private final BoundedLabel causes = new BoundedLabel(MAX_CAUSES);

    public GcMetrics(PrometheusRegistry registry, PrometheusProperties properties) {
        pauses = Histogram.builder(properties)
                .name("blockscope_gc_pause_seconds")
                .help("Stop-the-world GC pauses; for ZGC and Shenandoah the pauses inside a cycle, not the cycle.")
                .unit(Unit.SECONDS)
                .labelNames("gc", "cause")
                .classicUpperBounds(PAUSE_BUCKETS)
                .withoutExemplars()
                .register(registry);
        collections = Counter.builder(properties)
                .name("blockscope_gc_collections")
                .help("GC collections (cycles) completed.")
                .labelNames("gc")
                .withoutExemplars()
                .register(registry);
        heapBefore = Gauge.builder(properties)
                .name("blockscope_gc_heap_used_before_bytes")
                .help("Heap used at the start of the last collection.")
                .unit(Unit.BYTES)
                .labelNames("gc")
                .withoutExemplars()
                .register(registry);
        heapAfter = Gauge.builder(properties)
                .name("blockscope_gc_heap_used_after_bytes")
                .help("Heap used at the end of the last collection.")
                .unit(Unit.BYTES)
                .labelNames("gc")
                .withoutExemplars()
                .register(registry);
        source = Info.builder(properties)
                .name("blockscope_gc_source")
                .help(
                        "Where GC metrics come from: jfr; mxbean (JFR could not start, or chosen); off (gc.source=off); none.")
                .labelNames("source")
                .register(registry);
    }

    /** Maps a raw collector name to its bounded label value. */
    String collector(String name) {
        return collectors.of(name);
    }

    /** Maps a raw GC cause to its bounded label value. */
    String cause(String cause) {
        return causes.of(cause);
    }

    void pause(String gc, String cause, double seconds) {
        pauses.labelValues(gc, cause).observe(seconds);
    }

    void collection(String gc) {
        collections.labelValues(gc).inc();
    }

    void heapBefore(String gc, long bytes) {
        heapBefore.labelValues(gc).set(bytes);
    }

    void heapAfter(String gc, long bytes) {
        heapAfter.labelValues(gc).set(bytes);
    }

    /** Records the source in use ({@code jfr} or {@code mxbean}); replaces any earlier one. */
    void source(String name) {
        source.setLabelValues(name);
    }
}
