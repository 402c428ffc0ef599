package io.blockscope.server.jvm;

import io.blockscope.exporter.gc.GcMonitoring;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * This JVM's stop-the-world GC pauses per collector, read by the exporter's own GC collector (JFR's
 * {@code jdk.GCPhasePause}, joined to its collection: real pauses, to the nanosecond, G1 Remark and
 * Cleanup included) into a private registry. Where JFR cannot start, the exporter falls back to the
 * GC MXBeans, and every reading says so ({@link Reading#source()} is {@code mxbean-fallback}).
 */
public final class GcPauses {

    /** The pause histogram of docs/metrics.md, fed by both of the exporter's sources. */
    private static final String PAUSES = "blockscope_gc_pause_seconds";

    /** JFR flushes about once a second; a loaded 2-core machine may take several. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

    private final PrometheusRegistry registry;
    private final GcMonitoring monitoring;

    GcPauses(GcMonitoring.Source wanted) {
        this.registry = new PrometheusRegistry();
        this.monitoring = GcMonitoring.start(registry, PrometheusProperties.get(), wanted);
    }

    private static volatile boolean started;

    /** The JVM-wide reader, started on first use (one JFR stream, from then on). */
    public static GcPauses shared() {
        return Shared.INSTANCE;
    }

    /** Whether {@link #shared()} has been started: a server runs no JFR stream until PE asks for one. */
    public static boolean sharedStarted() {
        return started;
    }

    private static final class Shared {
        static final GcPauses INSTANCE = new GcPauses(GcMonitoring.Source.JFR);

        static {
            started = true;
        }
    }

    /** One collector's cumulative pauses. */
    public record Pause(long count, double seconds) {
        Pause plus(Pause other) {
            return new Pause(count + other.count, seconds + other.seconds);
        }

        Pause minus(Pause other) {
            return new Pause(count - other.count, seconds - other.seconds);
        }
    }

    /**
     * Cumulative pauses by collector name (JFR's names, e.g. {@code G1New}, {@code G1Old}); {@code
     * settled} is false when the pauses up to the reading could not be confirmed delivered.
     */
    public record Reading(String source, boolean settled, Map<String, Pause> byCollector) {

        public static Reading empty(String source) {
            return new Reading(source, false, Map.of());
        }

        public long count() {
            return byCollector.values().stream().mapToLong(Pause::count).sum();
        }

        public double seconds() {
            return byCollector.values().stream().mapToDouble(Pause::seconds).sum();
        }

        /** What happened between {@code earlier} and this reading. */
        public Reading minus(Reading earlier) {
            Map<String, Pause> d = new TreeMap<>();
            byCollector.forEach((gc, p) -> {
                Pause before = earlier.byCollector.getOrDefault(gc, new Pause(0, 0));
                Pause delta = p.minus(before);
                if (delta.count() != 0) {
                    d.put(gc, delta);
                }
            });
            // the interval's end decides: its start is the previous interval's settled end
            return new Reading(source, settled, d);
        }

        /** This reading's pauses added to {@code other}'s (the sum of two intervals). */
        public Reading plus(Reading other) {
            Map<String, Pause> sum = new TreeMap<>(byCollector);
            other.byCollector.forEach((gc, p) -> sum.merge(gc, p, Pause::plus));
            return new Reading(source, settled && other.settled, sum);
        }
    }

    /** {@code jfr}, or {@code mxbean-fallback} (pauses as the MXBeans time them), or {@code none}. */
    public String source() {
        return switch (monitoring.source()) {
            case JFR -> "jfr";
            case MXBEAN -> "mxbean-fallback";
            case OFF, NONE -> "none";
        };
    }

    /**
     * The pauses so far. With {@code settle}, first waits until every pause that ended before this
     * call has arrived from JFR, so that two readings bracket exactly the pauses between them.
     */
    public Reading read(boolean settle) {
        boolean settled = false;
        if (settle && monitoring.source() == GcMonitoring.Source.JFR) {
            try {
                settled = monitoring.awaitDelivered(SETTLE_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Map<String, Pause> byCollector = new TreeMap<>();
        for (MetricSnapshot snapshot : registry.scrape()) {
            if (snapshot instanceof HistogramSnapshot h
                    && PAUSES.startsWith(h.getMetadata().getName())) {
                for (HistogramSnapshot.HistogramDataPointSnapshot point : h.getDataPoints()) {
                    String gc = point.getLabels().get("gc");
                    byCollector.merge(gc, new Pause(point.getCount(), point.getSum()), Pause::plus);
                }
            }
        }
        return new Reading(source(), settled, byCollector);
    }
}
