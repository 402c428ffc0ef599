package io.blockscope.exporter.gc;

import static io.blockscope.testsupport.Scrape.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.ExporterChild;
import io.blockscope.exporter.testing.GcBeans;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Child JVMs on G1, Parallel and ZGC, under JDK 17 and JDK 25, each forcing {@value #FORCED}
 * collections: the exporter must see exactly the pauses those collections make, count the
 * collections and pauses the JVM's own GC MXBeans count, label them with the right collector and
 * cause, and time them as the MXBeans do.
 */
class GcPausesTest {

    private static final int FORCED = 5;
    private static final String SYSTEM_GC = "System.gc()";

    /**
     * One JVM and collector: the names JFR gives the collections {@code System.gc()} causes, and
     * how many pauses each {@code System.gc()} makes (exactly, for stop-the-world collectors; at
     * least, for ZGC, which may repeat a mark-end pause).
     */
    private record Case(
            String name,
            Path java,
            String flag,
            Set<String> expectedCollectors,
            int pausesPerForcedGc,
            boolean exact) {}

    private static final Map<Case, ChildProcess> CHILDREN = new LinkedHashMap<>();
    private static final List<Case> SKIPPED = new ArrayList<>();

    private static List<Case> cases() {
        Path jdk17 = TestJdks.current();
        Path jdk25 = TestJdks.find(25).orElse(null); // a case without its JDK is reported as skipped
        return List.of(
                new Case("JDK 17 G1", jdk17, "-XX:+UseG1GC", Set.of("G1Full"), 1, true),
                // JDK 17's Parallel GC scavenges before each full GC (ScavengeBeforeFullGC)
                new Case(
                        "JDK 17 Parallel",
                        jdk17,
                        "-XX:+UseParallelGC",
                        Set.of("ParallelScavenge", "ParallelOld"),
                        2,
                        true),
                new Case("JDK 17 ZGC", jdk17, "-XX:+UseZGC", Set.of("Z"), 3, false),
                new Case("JDK 25 G1", jdk25, "-XX:+UseG1GC", Set.of("G1Full"), 1, true),
                new Case("JDK 25 Parallel", jdk25, "-XX:+UseParallelGC", Set.of("ParallelOld"), 1, true),
                // JDK 25 has only generational ZGC; System.gc() runs a major collection (young + old)
                new Case("JDK 25 ZGC", jdk25, "-XX:+UseZGC", Set.of("ZGC Major"), 3, false));
    }

    @BeforeAll
    static void startChildren() throws Exception {
        // All at once: most of each child's life is waiting for JFR's once-a-second flush.
        for (Case c : cases()) {
            if (c.java == null) {
                SKIPPED.add(c);
                continue;
            }
            CHILDREN.put(
                    c,
                    ChildJvm.start(
                            c.java,
                            List.of(c.flag, "-Xms64m", "-Xmx128m"),
                            ExporterChild.class,
                            "child.collections=" + FORCED));
        }
    }

    @AfterAll
    static void stopChildren() throws InterruptedException {
        for (ChildProcess child : CHILDREN.values()) {
            child.close();
        }
    }

    @TestFactory
    List<DynamicTest> exporterCountsWhatTheJvmCounts() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<Case, ChildProcess> e : CHILDREN.entrySet()) {
            tests.add(DynamicTest.dynamicTest(e.getKey().name, () -> verify(e.getKey(), e.getValue())));
        }
        for (Case c : SKIPPED) {
            tests.add(DynamicTest.dynamicTest(c.name, () -> TestJdks.require(25)));
        }
        return tests;
    }

    private static void verify(Case c, ChildProcess child) throws Exception {
        Duration startup = Duration.ofSeconds(60);
        String exporterLine = child.awaitLine(l -> l.startsWith("exporter "), startup);
        assertTrue(exporterLine.endsWith("serving true source jfr"), exporterLine + "\n" + child);
        int port = Integer.parseInt(exporterLine.split(" ")[2]);
        String forcedLine = child.awaitLine(l -> l.startsWith("forced "), startup);
        assertEquals("forced " + FORCED, forcedLine, "full collections the child's System.gc() calls ran\n" + child);
        GcBeans pre = beans(child, "pre");
        GcBeans base = beans(child, "base");
        GcBeans end = beans(child, "end");
        String context = c.name + ": MXBeans pre [" + pre + "] base [" + base + "] end [" + end + "]";

        // Collections between 'pre' and 'base' happened while the exporter started: it may or may
        // not have seen them. Everything from 'base' on it must see, and nothing more.
        long minCollections = end.collections() - base.collections();
        long maxCollections = end.collections() - pre.collections();
        long minPauses = end.pauses() - base.pauses();
        long maxPauses = end.pauses() - pre.pauses();
        assertTrue(minCollections >= FORCED, context);

        Scrape samples = awaitSamples(port, minCollections, minPauses, context);
        Thread.sleep(1500); // one more JFR flush: anything beyond the JVM's count would show now
        samples = Scrape.of(port);

        double collections = samples.sum("blockscope_gc_collections_total");
        double pauses = samples.sum("blockscope_gc_pause_seconds_count");
        context += "\nscrape collections=" + collections + " pauses=" + pauses;
        assertTrue(
                collections >= minCollections && collections <= maxCollections,
                "collections outside [" + minCollections + ", " + maxCollections + "]: " + context);
        assertTrue(
                pauses >= minPauses && pauses <= maxPauses,
                "pauses outside [" + minPauses + ", " + maxPauses + "]: " + context);

        // The forced collections carry the collector's JFR name and the System.gc() cause.
        Set<String> collectors =
                samples.matching("blockscope_gc_pause_seconds_count", label("cause", SYSTEM_GC)).stream()
                        .map(s -> s.labels().get("gc"))
                        .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(c.expectedCollectors, collectors, context);
        // Only the forced collections have this cause, so their pauses are known exactly.
        double forcedPauses = samples.sum("blockscope_gc_pause_seconds_count", label("cause", SYSTEM_GC));
        int expectedForced = FORCED * c.pausesPerForcedGc;
        if (c.exact) {
            assertEquals(expectedForced, forcedPauses, "System.gc() pauses: " + context);
        } else {
            assertTrue(
                    forcedPauses >= expectedForced,
                    "System.gc() pauses " + forcedPauses + " < " + expectedForced + ": " + context);
        }

        // Durations: plausible, and close to the MXBeans' own (whole-millisecond) accounting.
        double pauseSeconds = samples.sum("blockscope_gc_pause_seconds_sum");
        assertTrue(pauseSeconds > 0, context);
        double slowPauses = pauses - samples.sum("blockscope_gc_pause_seconds_bucket", label("le", "5.0"));
        assertEquals(0, slowPauses, "pauses over 5 s: " + context);
        long beanMillis = end.pauseMillis() - base.pauseMillis();
        long beanMillisMax = end.pauseMillis() - pre.pauseMillis();
        double jfrMillis = pauseSeconds * 1000;
        double slack = 2.0 * pauses + 0.2 * beanMillisMax;
        assertTrue(
                jfrMillis >= beanMillis - slack && jfrMillis <= beanMillisMax + slack,
                "pause time " + jfrMillis + " ms vs MXBeans [" + beanMillis + ", " + beanMillisMax + "] ms: "
                        + context);

        // Heap gauges and allocation estimate are there and sane.
        for (String gc : c.expectedCollectors) {
            double after = samples.sum("blockscope_gc_heap_used_after_bytes", label("gc", gc));
            double before = samples.sum("blockscope_gc_heap_used_before_bytes", label("gc", gc));
            assertTrue(after > 0 && after <= 128L << 20, "heap after " + after + ": " + context);
            assertTrue(before > 0 && before <= 128L << 20, "heap before " + before + ": " + context);
        }
        assertTrue(samples.sum("blockscope_allocated_bytes_total") > 0, context);
        assertEquals(1, samples.sum("blockscope_gc_source_info", label("source", "jfr")), context);
        System.out.println(context + " pauseMillis=" + jfrMillis);
    }

    private static Scrape awaitSamples(int port, long collections, long pauses, String context) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Scrape samples;
        do {
            samples = Scrape.of(port);
            if (samples.sum("blockscope_gc_collections_total") >= collections
                    && samples.sum("blockscope_gc_pause_seconds_count") >= pauses) {
                return samples;
            }
            Thread.sleep(300);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the exporter never reached " + collections + " collections and " + pauses
                + " pauses: " + context + "\nlast scrape collections="
                + samples.sum("blockscope_gc_collections_total") + " pauses="
                + samples.sum("blockscope_gc_pause_seconds_count"));
    }

    private static GcBeans beans(ChildProcess child, String phase) throws InterruptedException {
        String line = child.awaitLine(l -> l.startsWith("beans " + phase + " "), Duration.ofSeconds(5));
        return GcBeans.parse(line.substring(("beans " + phase + " ").length()));
    }
}
