package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.AgentLauncher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar blockscope-agent.jar attach <pid>} on a RegionServer that has served reads without
 * the agent: HBase's classes are retransformed, the BucketCache is captured on its next lookup, and
 * everything after the attach moves exactly as HBase's own counters do.
 */
class RegionServerAttachTest {

    @Test
    void attachingByPidToARunningRegionServerCountsEverythingAfterwards() throws Exception {
        try (RegionServerProcess server = RegionServerProcess.builder().start();
                ServerJmx jmx = ServerJmx.connect(server.pid());
                Workload workload = Workload.create(server, "attach")) {
            assertEquals(Workload.ROWS, workload.scan(), "rows read before the attach");

            long attachStart = System.nanoTime();
            String attached = AgentLauncher.attach(
                    server.java(), server.pid(), "127.0.0.1:0,copy.sample=1,leak.sample=1,leak.rate=0");
            System.out.printf(
                    "RegionServer started in %d ms; attach took %d ms%n",
                    server.startup().toMillis(), (System.nanoTime() - attachStart) / 1_000_000);
            assertTrue(attached.contains("running profile hbase2"), "launcher output: " + attached);
            assertTrue(
                    server.agentLine(Pattern.compile("late attach: loaded classes are retransformed"))
                            .isPresent(),
                    String.join("\n", server.agentLines()));

            ReadScenario.runAndCheck(server, jmx, workload);
        }
    }
}
