package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code java -jar blockscope-agent.jar attach <pid>} on a JVM whose BucketCache is already built
 * and filled, as an operator would on a running RegionServer: the loaded HBase classes are
 * retransformed, the cache is captured on its next lookup, and from then on the counts and the
 * occupancy are exact.
 */
class AgentAttachTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void attachingToARunningCacheCountsEverythingAfterwards(HBaseInstall hbase) throws Exception {
        verify(hbase, Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    /** The scenario with the driver and the launcher both on {@code java}. */
    static void verify(HBaseInstall hbase, Path java) throws Exception {
        try (DriverJvm jvm =
                DriverJvm.of("ReferenceDriver").hbase(hbase).java(java).start()) {
            jvm.await("cached");
            String attached = attach(java, jvm.pid(), "127.0.0.1:0,leak.sample=1,leak.rate=0");
            assertTrue(attached.contains("running profile hbase2"), "launcher output: " + attached);
            assertTrue(
                    jvm.agentLine(Pattern.compile("late attach: loaded classes are retransformed"))
                            .isPresent(),
                    jvm.log());
            jvm.proceed();

            Checkpoint holding = jvm.await("holding");
            AgentReferenceMetricsTest.assertAgentMatches(holding, jvm.scrape(), hbase);
            jvm.proceed();
            Checkpoint released = jvm.await("released");
            AgentReferenceMetricsTest.assertAgentMatches(released, jvm.scrape(), hbase);
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    /** Runs the launcher on {@code java}; returns its output, failing on a non-zero exit. */
    static String attach(Path java, long pid, String options) throws IOException, InterruptedException {
        Process launcher = new ProcessBuilder(List.of(
                        java.toString(), "-jar", AgentJar.locate().toString(), "attach", Long.toString(pid), options))
                .redirectErrorStream(true)
                .start();
        try {
            if (!launcher.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("attach to " + pid + " did not finish within 120 s");
            }
            String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, launcher.exitValue(), "attach exit status; output: " + output);
            return output;
        } finally {
            launcher.destroyForcibly();
        }
    }
}
