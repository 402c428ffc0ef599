package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.AllocationDriver;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The unsampled hot path allocates nothing: a million instrumented get/return/copy calls in a child
 * JVM with the agent and sampling off, measured with the thread's allocated-bytes counter.
 */
class ZeroAllocationIT {

    @Test
    void instrumentedCallsAllocateNothingWithSamplingOff() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,profile=" + fakeProfile() + ",leak.sample=0,copy.sample=0")
                .classPath(ChildJvm.classPath())
                .start(AllocationDriver.class.getName(), "1200000")) {
            String perCall = child.awaitOut(Pattern.compile("bytesPerCall=([0-9.E-]+)"));
            assertEquals(0, child.waitFor(), child.transcript());
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("probe get enabled on io.blockscope.agenttest.host.FakeCache")),
                    child.transcript());
            assertTrue(
                    Double.parseDouble(perCall) < 0.01,
                    "bytes per instrumented call: " + perCall + "\n" + child.transcript());
        }
    }

    static Path fakeProfile() throws Exception {
        return Path.of(ZeroAllocationIT.class.getResource("/fake-profile.json").toURI());
    }
}
