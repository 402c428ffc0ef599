package io.blockscope.exporter.gc;

import static io.blockscope.testsupport.Scrape.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.ExporterChild;
import io.blockscope.exporter.testing.ForcedGc;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.Scrape;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Without JFR the GC series come from the GC MXBeans, and the exporter says so. */
class MxBeanFallbackTest {

    @Test
    void jfrOffUsesGcMxBeanNotifications() throws Exception {
        Set<String> beanNames = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName)
                .collect(Collectors.toSet());
        try (Exporter exporter = Exporter.start(ExporterConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .build())) {
            assertEquals(GcMonitoring.Source.MXBEAN, exporter.gcSource());
            double before = Scrape.of(exporter.port()).sum("blockscope_gc_collections_total");
            // a young collection of the test's own may be counted first: wait for a System.gc() one
            ForcedGc.until(
                    () -> Scrape.of(exporter.port())
                                    .sum("blockscope_gc_pause_seconds_count", label("cause", "System.gc()"))
                            >= 1,
                    "no pause with the System.gc() cause",
                    Duration.ofSeconds(30));
            Scrape samples = Scrape.of(exporter.port());
            assertTrue(
                    samples.sum("blockscope_gc_collections_total") >= before + 1,
                    "collections before " + before + ", now " + samples.matching("blockscope_gc_collections_total"));
            assertEquals(1, samples.sum("blockscope_gc_source_info", label("source", "mxbean")));
            assertEquals(0, samples.sum("blockscope_gc_source_info", label("source", "jfr")));
            for (Scrape.Sample s : samples.matching("blockscope_gc_collections_total")) {
                assertTrue(beanNames.contains(s.labels().get("gc")), "gc label is a bean name: " + s.labels());
            }
            assertTrue(samples.sum("blockscope_gc_heap_used_after_bytes") > 0);
            assertFalse(samples.has("blockscope_allocated_bytes_total"), "no allocation estimate without JFR");
        }
    }

    @Test
    void jvmWithoutJfrFallsBackAndSaysSoOnce() throws Exception {
        // A JVM whose module graph lacks jdk.jfr: the "unsupported VM" case, on the real JDK.
        List<String> jvmArgs = List.of(
                "-Xmx64m", "--limit-modules", "java.base,java.management,jdk.management,java.net.http,java.logging");
        try (ChildProcess child =
                ChildJvm.start(TestJdks.current(), jvmArgs, ExporterChild.class, "child.collections=3")) {
            String line = child.awaitLine(l -> l.startsWith("exporter "), Duration.ofSeconds(60));
            assertTrue(line.endsWith("serving true source mxbean"), line + "\n" + child);
            child.awaitLine(l -> l.startsWith("forced "), Duration.ofSeconds(30));
            int port = Integer.parseInt(line.split(" ")[2]);
            Scrape samples = awaitCollections(port, 3);
            assertEquals(1, samples.sum("blockscope_gc_source_info", label("source", "mxbean")));
            assertTrue(samples.has("jvm_memory_used_bytes"));

            List<String> warnings = child.err().stream()
                    .filter(l -> l.startsWith("[blockscope] WARN"))
                    .collect(Collectors.toList());
            assertEquals(1, warnings.size(), String.join("\n", child.err()));
            assertTrue(
                    warnings.get(0).contains("JFR could not start, so GC metrics come from GC MXBean notifications"),
                    warnings.get(0));
            assertTrue(warnings.get(0).contains("jdk/jfr/"), "names what is missing: " + warnings.get(0));
        }
    }

    private static Scrape awaitCollections(int port, double atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Scrape samples;
        do {
            samples = Scrape.of(port);
            if (samples.sum("blockscope_gc_collections_total") >= atLeast) {
                return samples;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(
                "collections stayed below " + atLeast + ": " + samples.matching("blockscope_gc_collections_total"));
    }
}
