package io.blockscope.agent.it;

import static io.blockscope.testsupport.Scrape.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.CacheWorkload;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent on the example server's real caches, in a child JVM started with {@code -javaagent}:
 * exact counters for a deterministic workload, leaks and copy sites attributed to the test's own
 * reader and filter classes, occupancy equal to the cache's own statistics, JFR copy events.
 */
class CacheProbesIT {

    private static final int ROUNDS = 50;
    private static final int COPIES = 200;
    private static final String SERVER = "blockscope-example-server";

    @TempDir
    Path temp;

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {17, 25})
    void countsTheZeroCopyReadPathExactly(int jdk) throws Exception {
        Path recording = temp.resolve("copies.jfr");
        try (ChildJvm child = ChildJvm.builder(jdk == 17 ? ChildJvm.java17() : ChildJvm.java25())
                .agent("127.0.0.1:0,leak.sample=1,leak.rate=0,copy.sample=1,leak.age=2s")
                .jvmOption("-XX:StartFlightRecording=filename=" + recording)
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            child.command("work " + ROUNDS);
            child.command("copy " + COPIES);
            child.command("stats");
            Scrape scrape = Scrape.of(port);

            int data = CacheWorkload.DATA_SIZES.length;
            int meta = CacheWorkload.META_BLOCKS;
            int absent = CacheWorkload.ABSENT_KEYS;
            assertEquals(
                    ROUNDS * meta, scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"));
            assertEquals(
                    ROUNDS * (data + absent),
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "miss"));
            assertEquals(
                    ROUNDS * data, scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit"));
            assertEquals(
                    ROUNDS * absent, scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "miss"));
            assertEquals(ROUNDS * meta, scrape.count("blockscope_block_cache_returns_total", "tier", "l1"));
            assertEquals(ROUNDS * data, scrape.count("blockscope_block_cache_returns_total", "tier", "l2"));
            assertEquals(0, scrape.value("blockscope_block_refs_outstanding", "tier", "l1"));
            assertEquals(0, scrape.value("blockscope_block_refs_outstanding", "tier", "l2"));
            assertEquals(ROUNDS * data, scrape.count("blockscope_block_hold_seconds_count", "tier", "l2"));

            // the caches' own statistics agree
            Map<String, Long> stats = stats(child.out(), "stat l1.hits");
            assertEquals(stats.get("l1.hits"), (long)
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"));
            assertEquals(stats.get("l2.misses"), (long)
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "miss"));

            assertEquals(COPIES, scrape.count("blockscope_copy_to_heap_total", "component", "value"));
            assertEquals(
                    COPIES * CacheWorkload.VALUE,
                    scrape.count("blockscope_copy_to_heap_bytes_total", "component", "value"));
            assertEquals(COPIES, scrape.count("blockscope_copy_to_heap_total", "component", "row"));
            assertEquals(
                    COPIES * CacheWorkload.ROW,
                    scrape.count("blockscope_copy_to_heap_bytes_total", "component", "row"));
            assertEquals(0, scrape.value("blockscope_copy_to_heap_total", "component", "block"));
            assertEquals(0, scrape.value("blockscope_copy_to_heap_total", "component", "family"));

            String filterSite = site(
                    scrape,
                    "blockscope_copy_site_calls_total",
                    "io.blockscope.agenttest.host.CopyingFilter.filterCell:");
            assertEquals(COPIES, scrape.value("blockscope_copy_site_calls_total", "site", filterSite));
            assertEquals(
                    COPIES * CacheWorkload.VALUE, scrape.value("blockscope_copy_site_bytes_total", "site", filterSite));
            String rowSite = site(
                    scrape, "blockscope_copy_site_calls_total", "io.blockscope.agenttest.host.CacheWorkload.copy:");
            assertEquals(COPIES, scrape.value("blockscope_copy_site_calls_total", "site", rowSite));

            assertOccupancyMatches(scrape, child.out(), "zero-copy");
            assertEquals(
                    1, scrape.value("blockscope_agent_info", "profile", "example-server", "version", "0.1.0-SNAPSHOT"));
            for (String probe : List.of("block-get", "block-return", "cell-copy", "block-copy", "bucket-occupancy")) {
                assertEquals(1, scrape.value("blockscope_agent_probe_enabled", "probe", probe), probe);
                assertEquals(0, scrape.value("blockscope_agent_advice_errors_total", "probe", probe), probe);
            }

            // a reader that drops its blocks: leaks by gc, at its own site; the first is logged, with
            // the stack that took its block, and only the first
            child.command("leak 20");
            String leakSite = awaitLeak(port, "io.blockscope.agenttest.host.LeakyReader.readAndForget:", "gc", 20);
            assertEquals(20, Scrape.of(port).value("blockscope_block_refs_outstanding", "tier", "l2"));
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("leak: a block checked out from l2 at " + leakSite)
                                    && l.contains("garbage collected")),
                    child.transcript());
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(
                                    l -> l.contains("Acquired at:")
                                            && l.contains(
                                                    "<- io.blockscope.agenttest.host.LeakyReader.readAndForget(LeakyReader.java:")),
                    child.transcript());
            assertTrue(
                    child.agentLines().stream()
                                    .filter(l -> l.contains("leak: "))
                                    .count()
                            == 1,
                    child.transcript());

            // a reader that keeps its blocks: leaks by age once leak.age (2s) has passed
            child.command("hold 2");
            awaitLeak(port, "io.blockscope.agenttest.host.HoldingReader.holdForever:", "age", 2);

            Scrape last = Scrape.of(port);
            assertTrue(last.seriesCount("blockscope_") < 500, "series: " + last.seriesCount("blockscope_"));
            for (String name : agentMetricNames()) {
                assertTrue(last.text().contains("# TYPE " + name + " "), name + " missing from the scrape");
            }
            // the agent's own CPU: each scrape adds its time once done; the GC event stream's thread
            // and the start have run
            String cpu = "blockscope_agent_cpu_seconds_total";
            Scrape again = Scrape.of(port);
            assertTrue(again.value(cpu, "part", "scrape") > last.value(cpu, "part", "scrape"), again.describe(cpu));
            assertTrue(again.value(cpu, "part", "jfr") > 0, again.describe(cpu));
            assertTrue(again.value(cpu, "part", "startup") > 0, again.describe(cpu));
            assertTrue(
                    again.value(cpu, "part", "endpoint") >= last.value(cpu, "part", "endpoint"), again.describe(cpu));
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
            // nothing of ours on the host's stderr but our own lines (no JDK warnings about Unsafe, say)
            assertTrue(child.err().stream().allMatch(l -> l.startsWith("[blockscope]")), child.transcript());
        }
        assertCopyEventsRecorded(recording);
    }

    @Test
    void countsWholeBlockCopiesOfTheCopyReadPath() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("0")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "copy")) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            child.command("work 10");
            child.command("stats");
            Scrape scrape = Scrape.of(port);
            int bytes = IntStream.of(CacheWorkload.DATA_SIZES).sum();
            assertEquals(
                    10 * CacheWorkload.DATA_SIZES.length,
                    scrape.value("blockscope_copy_to_heap_total", "component", "block"));
            assertEquals(10L * bytes, scrape.value("blockscope_copy_to_heap_bytes_total", "component", "block"));
            assertEquals(0, scrape.value("blockscope_block_refs_outstanding", "tier", "l2"));
            assertOccupancyMatches(scrape, child.out(), "copy");
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
        }
    }

    private static void assertOccupancyMatches(Scrape scrape, List<String> out, String mode) {
        Map<String, Long> cache = stats(out, "stat capacity=");
        assertEquals(cache.get("capacity"), (long) scrape.value("blockscope_bucket_cache_capacity_bytes"));
        assertEquals(cache.get("used"), (long) scrape.value("blockscope_bucket_cache_used_bytes"));
        assertEquals(cache.get("wasted"), (long) scrape.value("blockscope_bucket_cache_wasted_bytes"));
        assertEquals(cache.get("failures"), (long) scrape.value("blockscope_bucket_cache_allocation_failures_total"));
        assertEquals(1, scrape.value("blockscope_read_path_mode", "mode", mode));
        int classes = 0;
        for (String line : out) {
            if (!line.startsWith("sizeclass ")) {
                continue;
            }
            classes++;
            Map<String, Long> s = fields(line.substring("sizeclass ".length()));
            String size = Long.toString(s.get("item"));
            assertEquals(
                    s.get("used"),
                    (long) scrape.value("blockscope_bucket_slots", "size_class", size, "state", "used"),
                    size);
            assertEquals(
                    s.get("free"),
                    (long) scrape.value("blockscope_bucket_slots", "size_class", size, "state", "free"),
                    size);
            assertEquals(
                    s.get("usedBytes"),
                    (long) scrape.value("blockscope_bucket_bytes", "size_class", size, "state", "used"),
                    size);
            assertEquals(
                    s.get("freeBytes"),
                    (long) scrape.value("blockscope_bucket_bytes", "size_class", size, "state", "free"),
                    size);
        }
        assertTrue(classes > 5, "size classes printed: " + classes);
        assertEquals(classes * 2, scrape.matching("blockscope_bucket_slots").size());
    }

    /** Waits (scraping, so the agent checks its reference queue) until the leak count at a site is reached. */
    private static String awaitLeak(int port, String sitePrefix, String reason, int expected) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Scrape scrape;
        do {
            scrape = Scrape.of(port);
            for (Scrape.Sample leaks : scrape.matching("blockscope_block_leaks_total", label("reason", reason))) {
                String site = leaks.labels().getOrDefault("site", "");
                if (site.startsWith(sitePrefix) && leaks.value() == expected) {
                    return site;
                }
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no " + expected + " " + reason + " leaks at " + sitePrefix + "\n" + scrape.text());
    }

    private static String site(Scrape scrape, String metric, String prefix) {
        for (Scrape.Sample sample : scrape.matching(metric)) {
            String site = sample.labels().getOrDefault("site", "");
            if (site.startsWith(prefix)) {
                return site;
            }
        }
        throw new AssertionError("no " + metric + " site starting with " + prefix + "\n" + scrape.text());
    }

    private static Map<String, Long> stats(List<String> out, String prefix) {
        for (String line : out) {
            if (line.startsWith(prefix)) {
                return fields(line.substring("stat ".length()));
            }
        }
        throw new AssertionError("no line " + prefix + " in " + out);
    }

    private static Map<String, Long> fields(String text) {
        Map<String, Long> out = new java.util.HashMap<>();
        for (String pair : text.trim().split(" ")) {
            String[] kv = pair.split("=");
            try {
                out.put(kv[0], Long.parseLong(kv[1]));
            } catch (NumberFormatException e) {
                // non-numeric field (mode): not compared numerically
            }
        }
        return out;
    }

    /** The names docs/metrics.md gives for the agent: its sections marked (agent...) and Agent health. */
    private static List<String> agentMetricNames() throws Exception {
        Path doc = Path.of(System.getProperty("basedir", "."), "..", "docs", "metrics.md");
        List<String> names = new ArrayList<>();
        boolean agentSection = false;
        for (String line : Files.readAllLines(doc)) {
            if (line.startsWith("## ")) {
                agentSection = line.contains("(agent") || line.contains("Agent health");
            } else if (agentSection && line.startsWith("| `blockscope_")) {
                names.add(line.substring(3, line.indexOf('`', 3)));
            }
        }
        assertTrue(names.size() >= 18, "agent metric names in " + doc + ": " + names);
        return names;
    }

    /** jfr print shows each sampled copy with the filter's frame on its stack. */
    private static void assertCopyEventsRecorded(Path recording) throws Exception {
        assertTrue(Files.size(recording) > 0, "no recording at " + recording);
        Path jfr = Path.of(System.getProperty("java.home"), "bin", "jfr");
        Process print = new ProcessBuilder(
                        // the filter's frame is the sixth; jfr print shows five unless told
                        jfr.toString(),
                        "print",
                        "--stack-depth",
                        "16",
                        "--events",
                        "blockscope.CopyToHeap",
                        recording.toString())
                .redirectErrorStream(true)
                .start();
        String text = new String(print.getInputStream().readAllBytes());
        assertEquals(0, print.waitFor(), text);
        List<String> events = new ArrayList<>();
        for (String block : text.split("blockscope.CopyToHeap \\{")) {
            if (block.contains("component = \"value\"")) {
                events.add(block);
            }
        }
        assertEquals(COPIES, events.size(), text.length() > 4000 ? text.substring(0, 4000) : text);
        assertTrue(events.get(0).contains("io.blockscope.agenttest.host.CopyingFilter.filterCell("), events.get(0));
        assertTrue(
                events.get(0).contains("site = \"io.blockscope.agenttest.host.CopyingFilter.filterCell:"),
                events.get(0));
    }
}
