package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.AgentLauncher;
import java.nio.file.Path;
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
            String attached = AgentLauncher.attach(java, jvm.pid(), "127.0.0.1:0,leak.sample=1,leak.rate=0");
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
}
