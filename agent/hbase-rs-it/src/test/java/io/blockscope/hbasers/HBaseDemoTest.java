package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.hbasers.server.CopyingValueFilter;
import io.blockscope.hbasers.server.LeakingObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code bash .ci/demo hbase} itself, in a short form (10 s acts, no build: the reactor's jars and
 * class path), on a real standalone RegionServer with the agent and Debian's Prometheus: its report
 * must tell the story, the copying filter and the leaking coprocessor named by their methods, both
 * alerts firing and then resolving once they are switched off. One RegionServer start; about 2.5 minutes.
 */
// Runs alone: beside the other RegionServer tests (two RegionServers on two cores) a read in its
// healthy act held a block past the demo's 10 s leak age, and the leak alert fired an act early.
// Its 10 s leak age and alert timings do not hold beside another RegionServer: runs alone.
@Isolated
class HBaseDemoTest {

    private static final String FILTER_SITE = CopyingValueFilter.class.getName() + ".filterCell:";
    private static final String LEAK_SITE = LeakingObserver.class.getName() + ".preGetOp:";

    @TempDir
    Path dir;

    @Test
    void theHBaseDemoFindsTheCopyingFilterAndTheLeakingCoprocessorAndTheirAlertsResolve() throws Exception {
        Path root = Path.of(RegionServerProcess.required("blockscope.dashboards"), "..")
                .toRealPath();
        Path classpath = dir.resolve("regionserver.classpath");
        Files.writeString(classpath, RegionServerProcess.required("blockscope.rs.classpath"));
        Path output = dir.resolve("demo.out");
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", root.resolve(".ci/demo").toString(), "hbase")
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        Map<String, String> env = builder.environment();
        env.put("DEMO_SKIP_BUILD", "1");
        env.put("HBASE_CLASSPATH_FILE", classpath.toString());
        env.put("HBASE_DEMO_CLASSES", RegionServerProcess.required("blockscope.rs.classes"));
        env.put("AGENT_JAR", AgentJar.locate().toString());
        env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        env.put("ACT_SECONDS", "10");
        env.put("DEMO_KEEP", "0");
        Process demo = builder.start();
        boolean done = demo.waitFor(10, TimeUnit.MINUTES);
        if (!done) {
            demo.descendants().forEach(ProcessHandle::destroy);
            demo.destroy();
            demo.waitFor(30, TimeUnit.SECONDS);
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);
        // Kept for docs/demo.md and for a failure's post-mortem.
        Files.writeString(
                Path.of(RegionServerProcess.required("blockscope.capture")).resolveSibling("hbase-demo.out"), out);
        assertTrue(done, "the demo did not finish in 10 minutes:\n" + out);
        assertEquals(0, demo.exitValue(), "the demo's exit status; its output:\n" + out);

        String report = out.substring(out.indexOf("blockscope demo report"));
        String act1 = section(report, "Act 1,", "Act 2,");
        String act2 = section(report, "Act 2,", "Act 3,");
        String act3 = section(report, "Act 3,", "Act 4,");
        String act4 = section(report, "Act 4,", "Alerts that fired");
        String alerts = section(report, "Alerts that fired", "Where to look");
        assertAll(
                () -> assertFalse(act1.contains(FILTER_SITE), "the filter is not in the healthy act:\n" + act1),
                () -> assertFalse(act1.contains(LEAK_SITE), "nor is the coprocessor:\n" + act1),
                // a healthy server leaks nothing: two CI runs in seven reported a gc leak here, a shared
                // block's checkout whose own release the tracker never saw (docs/demo.md)
                () -> assertTrue(
                        Pattern.compile("leaked references +0 new")
                                .matcher(act1)
                                .find(),
                        "no leak on the healthy path:\n" + act1),
                () -> assertTrue(act2.contains("site " + FILTER_SITE), "the filter is act 2's copy site:\n" + act2),
                () -> assertTrue(
                        act3.contains("acquired at " + LEAK_SITE),
                        "the coprocessor's method acquired the leaks:\n" + act3),
                () -> assertTrue(act4.contains("outstanding refs     0 at the end"), "scanners closed:\n" + act4),
                () -> assertFalse(act4.contains(LEAK_SITE), "no new leak once the scanners are closed:\n" + act4),
                () -> assertTrue(out.contains("alert BlockscopeHotCopyPath is pending"), "pending first:\n" + out),
                () -> assertTrue(
                        Pattern.compile("BlockscopeHotCopyPath: firing at act [23] \\+\\d+s, resolved at act 4")
                                .matcher(alerts)
                                .find(),
                        alerts),
                () -> assertTrue(alerts.contains("Top call site: " + FILTER_SITE), alerts),
                () -> assertTrue(
                        Pattern.compile("BlockscopeBlockRefLeak: firing at act 3 \\+\\d+s, resolved at act 4.*\n"
                                        + " +summary: +Block reference leak \\(age\\)")
                                .matcher(alerts)
                                .find(),
                        alerts),
                () -> assertTrue(alerts.contains("started: " + LEAK_SITE), alerts),
                () -> assertFalse(
                        Pattern.compile("BlockscopeBlockRefLeak: firing at act [12] ")
                                .matcher(alerts)
                                .find(),
                        "the leak alert stays quiet before the leak:\n" + alerts),
                () -> assertTrue(out.contains("RegionServer     ZooKeeper 127.0.0.1:"), "where the server is:\n" + out),
                () -> assertTrue(out.contains("dashboards/grafana/*.json"), "where the dashboards are"));
        for (String line : List.of(act2.split("\n"))) {
            if (line.contains("copy onto the heap")) {
                System.out.println("[hbase demo] act 2" + line);
            }
        }
    }

    private static String section(String text, String from, String to) {
        int start = text.indexOf(from);
        int end = text.indexOf(to, Math.max(start, 0));
        assertTrue(start >= 0 && end > start, "no '" + from + "' before '" + to + "' in:\n" + text);
        return text.substring(start, end);
    }
}
