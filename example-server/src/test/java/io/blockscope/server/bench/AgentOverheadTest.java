package io.blockscope.server.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The RPC variant's warm-up run: the measured run's PE options with its own duration. */
class AgentOverheadTest {

    @Test
    void theWarmupRunReplacesTheDurationInEitherSpelling() {
        assertEquals(
                List.of("--workload", "multiget", "--threads", "2", "--duration", "20s"),
                AgentOverhead.withDuration(
                        List.of("--workload", "multiget", "--duration", "10s", "--threads", "2"), "20s"));
        assertEquals(
                List.of("--workload", "scanRange", "--duration", "20s"),
                AgentOverhead.withDuration(List.of("--duration=10s", "--workload", "scanRange"), "20s"));
        assertEquals(List.of("--duration", "5s"), AgentOverhead.withDuration(List.of(), "5s"));
    }
}
