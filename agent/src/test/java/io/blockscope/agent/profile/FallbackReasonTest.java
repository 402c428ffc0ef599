package io.blockscope.agent.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.agent.bootstrap.Counters;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FallbackReasonTest {

    @Test
    void everyBridgeIndexHasExactlyOneLabel() {
        assertEquals(Counters.FALLBACK_REASONS, FallbackReason.values().length);
        for (int i = 0; i < Counters.FALLBACK_REASONS; i++) {
            int index = i;
            assertEquals(
                    1,
                    Arrays.stream(FallbackReason.values())
                            .filter(r -> r.index() == index)
                            .count(),
                    "index " + i);
        }
        assertEquals(
                List.of("below_min_size", "pool_exhausted", "pool_disabled"),
                Arrays.stream(FallbackReason.values())
                        .map(FallbackReason::label)
                        .toList());
    }
}
