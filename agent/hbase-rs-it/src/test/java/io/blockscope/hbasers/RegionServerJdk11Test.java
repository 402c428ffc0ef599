package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.exporter.testing.TestJdks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The same RegionServer and reads on JDK 11 (HBase 2.6 supports 8, 11 and 17), with the agent at
 * start. Runs when {@code BLOCKSCOPE_TEST_JDKS} has an {@code 11=} entry (.ci/jdks.sh sets it).
 */
class RegionServerJdk11Test {

    @Test
    void theAgentCountsExactlyOnARegionServerOnJdk11() throws Exception {
        Path java = TestJdks.require(11); // skips, saying how to provide JDK 11, when it is not named
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .java(java)
                        .agent("copy.sample=1,leak.sample=1,leak.rate=0")
                        .start();
                ServerJmx jmx = ServerJmx.connect(server.pid());
                Workload workload = Workload.create(server, "jdk11")) {
            assertEquals("11", jmx.runtimeVersion().split("\\.")[0], "the RegionServer's java.specification.version");
            ReadScenario.runAndCheck(server, jmx, workload);
        }
    }
}
