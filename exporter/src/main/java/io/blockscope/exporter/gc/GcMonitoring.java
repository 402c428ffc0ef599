package io.blockscope.exporter.gc;

import io.blockscope.exporter.Log;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Starts the GC metrics from the best source this JVM offers: JFR when enabled and available,
 * else the GC MXBeans. Never throws: a JVM with neither simply has no GC series (and says so once).
 */
public final class GcMonitoring implements AutoCloseable {

    /** The value of {@code blockscope_gc_source_info{source}}. */
    public enum Source {
        JFR("jfr"),
        MXBEAN("mxbean"),
        /** Turned off by the operator ({@code gc.source=off}): expected, unlike {@link #NONE}, so no alert. */
        OFF("off"),
        /** Neither source could start. */
        NONE("none");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The first JDK with {@code jdk.jfr.consumer.RecordingStream}. */
    static final int JFR_STREAMING = 14;

    private static final String JFR_COLLECTOR = "io.blockscope.exporter.gc.JfrGcCollector";

    private final AutoCloseable collector;
    private final Source source;

    private GcMonitoring(AutoCloseable collector, Source source) {
        this.collector = collector;
        this.source = source;
    }

    public static GcMonitoring start(PrometheusRegistry registry, PrometheusProperties properties, boolean useJfr) {
        return start(registry, properties, useJfr ? Source.JFR : Source.MXBEAN);
    }

    /**
     * Starts the source asked for ({@code gc.source}); {@link Source#OFF} collects nothing, so only
     * {@code blockscope_gc_source_info{source="off"}} is served, saying why the GC series are absent.
     */
    public static GcMonitoring start(PrometheusRegistry registry, PrometheusProperties properties, Source wanted) {
        boolean useJfr = wanted == Source.JFR;
        GcMetrics metrics;
        try {
            metrics = new GcMetrics(registry, properties);
        } catch (RuntimeException | LinkageError e) {
            Log.warnOnce("gc-metrics", "GC metrics could not be registered; no blockscope_gc_* series", e);
            return new GcMonitoring(null, Source.NONE);
        }
        if (wanted == Source.OFF || wanted == Source.NONE) {
            Log.info("gc.source=off: no GC metrics from blockscope (blockscope_gc_source_info{source=\"off\"})");
            metrics.source(Source.OFF.label());
            return new GcMonitoring(null, Source.OFF);
        }
        if (useJfr && Runtime.version().feature() < JFR_STREAMING) {
            Log.info(
                    "JDK " + Runtime.version().feature() + " has no JFR event streaming (JDK 14+): GC metrics come from"
                            + " GC MXBean notifications (blockscope_gc_source_info{source=\"mxbean\"})");
        } else if (useJfr) {
            try {
                AutoCloseable jfr = startJfr(metrics, registry, properties);
                metrics.source(Source.JFR.label());
                return new GcMonitoring(jfr, Source.JFR);
            } catch (Exception | LinkageError e) {
                Log.warnOnce(
                        "jfr-start",
                        "JFR could not start, so GC metrics come from GC MXBean notifications (pauses in whole"
                                + " milliseconds, no allocation rate; blockscope_gc_source_info{source=\"mxbean\"})",
                        e);
            }
        } else {
            Log.info("gc.source=mxbean: GC metrics come from GC MXBean notifications");
        }
        try {
            MxBeanGcCollector mxbeans = MxBeanGcCollector.start(metrics);
            metrics.source(Source.MXBEAN.label());
            return new GcMonitoring(mxbeans, Source.MXBEAN);
        } catch (RuntimeException | LinkageError e) {
            Log.warnOnce("mxbean-start", "GC MXBean notifications are not available either; no GC pause metrics", e);
            metrics.source(Source.NONE.label());
            return new GcMonitoring(null, Source.NONE);
        }
    }

    /**
     * {@code JfrGcCollector} is compiled for Java 14 ({@code RecordingStream}) and loaded by name, so
     * that this class still loads on JDK 11.
     */
    private static AutoCloseable startJfr(
            GcMetrics metrics, PrometheusRegistry registry, PrometheusProperties properties) throws Exception {
        java.lang.reflect.Method start = Class.forName(JFR_COLLECTOR)
                .getDeclaredMethod("start", GcMetrics.class, PrometheusRegistry.class, PrometheusProperties.class);
        try {
            return (AutoCloseable) start.invoke(null, metrics, registry, properties);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }

    public Source source() {
        return source;
    }

    /** The thread consuming the JFR stream, or null when GC metrics come from elsewhere or nowhere. */
    public Thread thread() {
        return collector instanceof StreamThread ? ((StreamThread) collector).thread() : null;
    }

    /**
     * Waits until the pauses of every collection that ended before this call are in the metrics, so
     * that a reader comparing two readings charges each pause to the right interval. Only JFR can
     * tell (a marker event through its ordered stream); for the MXBean source this returns false at
     * once, as it does on timeout.
     */
    public boolean awaitDelivered(java.time.Duration timeout) throws InterruptedException {
        if (collector instanceof EventBarrier) {
            return ((EventBarrier) collector).awaitDelivered(timeout.toNanos());
        }
        return false;
    }

    @Override
    public void close() {
        if (collector == null) {
            return;
        }
        try {
            collector.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            Log.warnOnce("gc-close", "GC metrics did not stop cleanly", e);
        }
    }
}
