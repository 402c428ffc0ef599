package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.CheckoutDriver;
import io.blockscope.testsupport.Scrape;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A profile's {@code checkout} condition and {@code "returns": "checked-out"} on instrumented code
 * ({@link CheckoutDriver} with fake-profile.json): hits on heap blocks count as hits but are no
 * references, the condition is never read on a miss, and releases of blocks no lookup handed out
 * (heap hits, blocks read from disk) are not returns.
 */
class CheckoutMatchingIT {

    private static final int LOOKUPS = 4_000;

    @Test
    void onlySharedHitsAreCheckoutsAndOnlyTheirReleasesAreReturns() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,profile=" + ZeroAllocationIT.fakeProfile()
                        + ",leak.sample=1,leak.rate=0,copy.sample=0")
                .classPath(ChildJvm.classPath())
                .start(CheckoutDriver.class.getName(), Integer.toString(LOOKUPS))) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            Scrape scrape = Scrape.of(port);

            int hits = LOOKUPS / 2 + 1; // plus the kept one
            int sharedHits = LOOKUPS / 4 + 1;
            assertEquals(
                    hits,
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l3", "result", "hit"),
                    scrape.text());
            assertEquals(
                    LOOKUPS / 2, scrape.count("blockscope_block_cache_gets_total", "tier", "l3", "result", "miss"));
            assertEquals(
                    LOOKUPS / 4,
                    scrape.count("blockscope_block_cache_returns_total", "tier", "l3"),
                    "only releases of shared hits count; heap hits and disk reads released too");
            assertEquals(
                    sharedHits - LOOKUPS / 4,
                    scrape.value("blockscope_block_refs_outstanding", "tier", "l3"),
                    "the kept shared block is the only reference out");
            assertEquals(
                    LOOKUPS / 4,
                    scrape.count("blockscope_block_hold_seconds_count", "tier", "l3"),
                    "every sampled checkout but the kept one ended with a hold time");
            assertEquals(
                    0,
                    scrape.count("blockscope_agent_advice_errors_total", "probe", "lookup"),
                    "the checkout condition was never read on a miss");
            assertEquals(0, scrape.count("blockscope_agent_advice_errors_total", "probe", "release-block"));
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(
                                    l -> l.contains("probe lookup enabled on io.blockscope.agenttest.host.FakeCache")),
                    child.transcript());
        }
    }
}
