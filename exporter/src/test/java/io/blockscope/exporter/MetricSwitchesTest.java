package io.blockscope.exporter;

import static io.blockscope.testsupport.Scrape.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.testing.ForcedGc;
import io.blockscope.testsupport.Scrape;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code jvm.metrics=off} and {@code gc.source=off|mxbean} change what a real scrape of the
 * endpoint returns: the switches an operator uses when another agent (the JMX exporter, the
 * OpenTelemetry agent) already exports the JVM's series. The agent jar's side is OtherAgentsIT.
 */
class MetricSwitchesTest {

    @Test
    void byDefaultTheJvmAndProcessSeriesAreServed() throws Exception {
        try (Exporter exporter = Exporter.start(ExporterConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .build())) {
            Scrape samples = Scrape.of(exporter.port());
            assertTrue(samples.has("jvm_memory_used_bytes"), names(samples).toString());
            assertTrue(samples.has("jvm_threads_current"), names(samples).toString());
            assertTrue(samples.has("process_cpu_seconds_total"), names(samples).toString());
        }
    }

    @Test
    void jvmMetricsOffLeavesOutEveryJvmAndProcessSeriesButNothingElse() throws Exception {
        try (Exporter exporter = Exporter.start(ExporterConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .jvmMetrics(false)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .build())) {
            ForcedGc.until(
                    () -> Scrape.of(exporter.port()).sum("blockscope_gc_collections_total") >= 1,
                    "no GC collection counted",
                    Duration.ofSeconds(20));
            Scrape samples = Scrape.of(exporter.port());
            List<String> jvm = names(samples).stream()
                    .filter(n -> n.startsWith("jvm_") || n.startsWith("process_"))
                    .collect(Collectors.toList());
            assertEquals(List.of(), jvm, "no jvm_*/process_* series with jvm.metrics=off");
            assertEquals(1, samples.sum("blockscope_gc_source_info", label("source", "mxbean")));
            assertTrue(
                    samples.has("blockscope_exporter_build_info"),
                    names(samples).toString());
        }
    }

    @Test
    void gcSourceOffCollectsNoGcSeriesAndSaysWhy() throws Exception {
        try (Exporter exporter = Exporter.start(ExporterConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .gcSource(GcMonitoring.Source.OFF)
                .build())) {
            assertEquals(GcMonitoring.Source.OFF, exporter.gcSource());
            System.gc();
            // MXBean notifications arrive within milliseconds and JFR's within about a second: had a
            // source been started, this collection would show after this wait.
            Thread.sleep(1500);
            Scrape samples = Scrape.of(exporter.port());
            List<String> gc = names(samples).stream()
                    .filter(n -> n.startsWith("blockscope_gc_") && !n.equals("blockscope_gc_source_info"))
                    .collect(Collectors.toList());
            assertEquals(List.of(), gc, "no blockscope_gc_* series with gc.source=off");
            assertEquals(List.of(), samples.matching("blockscope_allocated_bytes_total"));
            assertEquals(1, samples.sum("blockscope_gc_source_info", label("source", "off")));
            assertEquals(1, samples.matching("blockscope_gc_source_info").size());
            assertTrue(samples.has("jvm_memory_used_bytes"), "jvm.metrics stays on: " + names(samples));
        }
    }

    private static List<String> names(Scrape samples) {
        return samples.all().stream().map(Scrape.Sample::name).distinct().collect(Collectors.toList());
    }
}
