package io.blockscope.exporter.self;

import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The exporter's own series: who it is, what a scrape costs, and the agent's threads' CPU. */
public final class SelfMetrics {

    private static final double[] SCRAPE_BUCKETS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5
    };

    private final Histogram scrapeDuration;

    private final AgentCpu cpu;

    public SelfMetrics(PrometheusRegistry registry, PrometheusProperties properties, AgentCpu cpu) {
        this.cpu = cpu;
        registry.register(cpu);
        Info.builder(properties)
                .name("blockscope_exporter_build")
                .help("Build and runtime identity of the blockscope exporter.")
                .labelNames("version", "jdk")
                .register(registry)
                .setLabelValues(version(), System.getProperty("java.runtime.version", "unknown"));
        scrapeDuration = Histogram.builder(properties)
                .name("blockscope_scrape_duration_seconds")
                .help("Time to collect and write one scrape.")
                .unit(Unit.SECONDS)
                .classicOnly()
                .classicUpperBounds(SCRAPE_BUCKETS)
                .withoutExemplars()
                .register(registry);
    }

    /** The serving thread's CPU time now, to pass to {@link #observeScrape}; -1 when not measured. */
    public long scrapeCpuStart() {
        return cpu.scrapeStarted();
    }

    /** A scrape that took {@code nanos} and began at {@code cpuStart} of its thread's CPU time. */
    public void observeScrape(long nanos, long cpuStart) {
        scrapeDuration.observe(nanos / 1e9);
        cpu.scrapeDone(cpuStart);
    }

    /**
     * The exporter's version, from a resource next to this class: relative, so it is found under
     * the same name when the agent jar relocates the package.
     */
    public static String version() {
        try (InputStream in = SelfMetrics.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // fall through: an unknown version is no reason to fail
        }
        return "unknown";
    }
}
