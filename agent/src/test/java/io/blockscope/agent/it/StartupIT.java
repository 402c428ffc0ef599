package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.StartupHost;
import io.blockscope.testsupport.Scrape;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code premain} returns before the agent's endpoint is up (the rest of the start runs on its own
 * thread), the endpoint comes up later, and a probe target the host loads and uses at once, while
 * that start is under way, is instrumented from its first call.
 */
class StartupIT {

    private static final int LOOKUPS = 2_000;

    @Test
    void mainRunsBeforeTheEndpointIsUpAndATargetLoadedMeanwhileCountsFromItsFirstCall() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,profile=" + ZeroAllocationIT.fakeProfile()
                        + ",leak.sample=1,leak.rate=0,copy.sample=0")
                .classPath(ChildJvm.classPath())
                .start(StartupHost.class.getName(), Integer.toString(LOOKUPS))) {
            assertEquals(
                    "state=starting port=null",
                    child.awaitOut(Pattern.compile("^at main (.*)")),
                    "main ran while the agent was starting, no endpoint yet\n" + child.transcript());
            int port =
                    Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+) state=running profile fake$")));

            Scrape scrape = Scrape.of(port);
            assertEquals(LOOKUPS / 2, scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"));
            assertEquals(
                    LOOKUPS / 2, scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "miss"));
            assertEquals(LOOKUPS / 2, scrape.count("blockscope_block_cache_returns_total", "tier", "l1"));
            assertEquals(0, scrape.value("blockscope_block_refs_outstanding", "tier", "l1"));
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("probe get enabled on io.blockscope.agenttest.host.FakeCache")),
                    child.transcript());
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(
                                    l -> l.matches(".*; started in \\d+ ms, of which premain .* \\d+ ms; probe targets"
                                            + " held until the probes were in: \\d+ class\\(es\\) waited \\d+ ms$")),
                    "the start line says what the host waited for\n" + child.transcript());
        }
    }
}
