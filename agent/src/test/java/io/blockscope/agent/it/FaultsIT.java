package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.BrokenProbeHost;
import io.blockscope.agenttest.host.HelloHost;
import io.blockscope.testsupport.Scrape;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Whatever goes wrong on the agent's side, the host's own work completes and the log says what to do. */
class FaultsIT {

    @Test
    void badOptionDisablesTheAgentWithOneLineNamingIt() throws Exception {
        try (ChildJvm child = hello("0,leak.sampel=8")) {
            assertHostDone(child);
            List<String> lines = child.agentLines();
            assertEquals(1, lines.size(), child.transcript());
            assertTrue(
                    lines.get(0)
                            .contains(
                                    "unknown option 'leak.sampel'; accepted: host, port, config, profile, leak.sample"),
                    lines.get(0));
            assertTrue(child.out().get(0).contains("agent=disabled"), child.transcript());
        }
    }

    @Test
    void malformedValueNamesTheOptionAndTheAcceptedValues() throws Exception {
        try (ChildJvm child = hello("0,leak.age=soon")) {
            assertHostDone(child);
            assertTrue(
                    child.agentLines().get(0).contains("malformed leak.age 'soon': expected a positive duration"),
                    child.transcript());
        }
    }

    @Test
    void portTakenKeepsTheHostRunning() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ChildJvm child = hello("127.0.0.1:" + taken.getLocalPort() + ",profile=example-server")) {
            assertHostDone(child);
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("cannot serve metrics on")
                                    && l.contains(Integer.toString(taken.getLocalPort()))),
                    child.transcript());
            assertTrue(child.out().get(0).contains("metrics not served"), child.transcript());
        }
    }

    @Test
    void unusableTlsFilesTurnOnlyTheEndpointOff() throws Exception {
        try (ChildJvm child =
                hello("127.0.0.1:0,profile=example-server,tls.cert=/nonexistent/c.pem,tls.key=/nonexistent/k.pem")) {
            assertHostDone(child);
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("endpoint off: tls.")
                                    && l.contains("/nonexistent/")
                                    && l.contains("metrics are collected")),
                    child.transcript());
            String state = child.out().get(0);
            assertTrue(state.contains("metrics not served"), child.transcript());
            assertTrue(!state.contains("agent=disabled"), "the probes stay on: " + child.transcript());
        }
    }

    @Test
    void absentTargetsAreReportedAsSkippedProbes() throws Exception {
        try (ChildJvm child = hello("127.0.0.1:0,profile=example-server")) {
            assertHostDone(child);
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(
                                    l -> l.contains("profile example-server: probes with targets: none;")
                                            && l.contains(
                                                    "skipped: block-get (io.blockscope.server.cache.lru.LruBlockCache is not on the class path")),
                    child.transcript());
        }
    }

    @Test
    void autoProfileWithoutKnownServerServesOnlyJvmMetrics() throws Exception {
        try (ChildJvm child = hello("127.0.0.1:0")) {
            assertHostDone(child);
            assertTrue(
                    child.agentLines().stream().anyMatch(l -> l.contains("no known server classes on the class path")),
                    child.transcript());
        }
    }

    @Test
    void exceptionInsideAdviceIsSuppressedCountedAndLoggedOnce() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,profile=" + ZeroAllocationIT.fakeProfile())
                .classPath(ChildJvm.classPath())
                .start(BrokenProbeHost.class.getName())) {
            String done = child.awaitOut(Pattern.compile("^(host done nulls=1000 .*)"));
            int port = Integer.parseInt(done.replaceAll(".*port=", ""));
            Scrape scrape = Scrape.of(port);
            assertEquals(1000, scrape.value("blockscope_agent_advice_errors_total", "probe", "broken"));
            assertEquals(0, scrape.value("blockscope_agent_advice_errors_total", "probe", "copy"));
            assertEquals(1, scrape.value("blockscope_agent_probe_enabled", "probe", "broken"));
            // and a probe with a "when" value next to it counted only the calls it selects
            assertEquals(250, scrape.value("blockscope_block_cache_returns_total", "tier", "l2"));
            Scrape.of(port);
            child.send("exit");
            assertEquals(0, child.waitFor(), child.transcript());
            assertEquals(
                    1,
                    child.agentLines().stream()
                            .filter(l -> l.contains("probe broken threw inside its advice")
                                    && l.contains("NullPointerException"))
                            .count(),
                    child.transcript());
        }
    }

    private static ChildJvm hello(String agentArgument) throws Exception {
        return ChildJvm.builder(ChildJvm.java17())
                .agent(agentArgument)
                .classPath(ChildJvm.classPath())
                .start(HelloHost.class.getName());
    }

    private static void assertHostDone(ChildJvm child) throws Exception {
        child.awaitOut(Pattern.compile("^host done sum="));
        assertEquals(0, child.waitFor(), child.transcript());
    }
}
