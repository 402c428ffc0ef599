package io.blockscope.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.ExporterChild;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.ChildProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exporter inside a host that knows nothing of it. */
class ChildLifecycleTest {

    @Test
    void exporterNeverKeepsTheHostAliveNorTalksThroughSlf4j() throws Exception {
        // main returns right after Exporter.start, leaving JFR stream and Jetty running: every thread
        // they own must be a daemon, or this JVM would never exit.
        try (ChildProcess child =
                ChildJvm.start(TestJdks.current(), List.of("-Xmx64m"), ExporterChild.class, "child.return=true")) {
            assertEquals(0, child.awaitExit(Duration.ofSeconds(30)), "the host JVM's exit code: " + child);
            assertTrue(child.out().stream().anyMatch(l -> l.endsWith("serving true source jfr")), child.toString());
            assertFalse(
                    String.join("\n", child.err()).contains("SLF4J"),
                    "SLF4J noise on the host's stderr: " + String.join("\n", child.err()));
            assertTrue(
                    child.err().stream().allMatch(l -> l.startsWith("[blockscope] ")),
                    "only our lines: " + String.join("\n", child.err()));
        }
    }
}
