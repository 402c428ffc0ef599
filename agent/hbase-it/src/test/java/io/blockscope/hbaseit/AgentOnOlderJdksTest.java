package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.AgentLauncher;
import io.blockscope.testsupport.Command;
import io.blockscope.testsupport.JavaCommand;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent on the JDKs HBase 2.x runs on besides 17 (issue 13): every metric the drivers' real
 * HBase 2.6 caches produce, with the same values as on 17, on a Temurin 11 runtime (and 21 where it
 * costs one JVM). On 11 the endpoint is Netty and GC metrics come from MXBean notifications; on 21
 * Jetty and JFR. The JDKs come from {@code BLOCKSCOPE_TEST_JDKS} ({@code .ci/jdks.sh}); a JDK it does
 * not name is reported as skipped.
 *
 * <p>Scenarios are those of {@link AgentCombinedCacheTest}, {@link AgentLeakTest}, {@link
 * AgentCopyTest} and {@link AgentAttachTest} (the same assertions), plus the fault matrix of the
 * agent module's FaultsIT on real HBase classes.
 */
class AgentOnOlderJdksTest {

    @TempDir
    static Path dir;

    private static HBaseInstall hbase26() {
        return HBaseInstall.all().stream()
                .filter(h -> h.version().startsWith("2.6."))
                .findFirst()
                .orElseThrow(() -> new AssertionError("HBase 2.6 is not among the versions under test"));
    }

    private static DriverJvm.Builder driver(String driverClass, int jdk) {
        return DriverJvm.of(driverClass).hbase(hbase26()).java(TestJdks.require(jdk));
    }

    /** Probes, references and occupancy, served over TLS with hashed basic auth. */
    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 21})
    void cachesCountedAndServedOverTlsWithBasicAuth(int jdk) throws Exception {
        SecuredEndpoint secured = SecuredEndpoint.create(dir);
        String endpoint = jdk < 17 ? "Netty" : "Jetty";
        String gcSource = jdk < 14 ? "mxbean" : "jfr";
        AgentCombinedCacheTest.verify(driver("CombinedDriver", jdk).secured(secured), "JDK " + jdk, jvm -> {
            URI metrics = jvm.metricsUri();
            assertEquals("https", metrics.getScheme(), jvm.log());
            assertTrue(
                    jvm.agentLine(Pattern.compile("bound port \\d+, " + endpoint + "\\)"))
                            .isPresent(),
                    "JDK " + jdk + " serves on " + endpoint + ":\n" + jvm.log());
            try {
                HttpResponse<String> anonymous = secured.get(metrics, false);
                assertEquals(401, anonymous.statusCode(), anonymous.body());
                assertEquals(
                        "Basic realm=\"blockscope\", charset=\"UTF-8\"",
                        anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
                assertEquals(
                        200,
                        secured.get(metrics.resolve("/-/healthy"), false).statusCode(),
                        "health needs no credentials");
                URI plain = URI.create("http://127.0.0.1:" + metrics.getPort() + "/metrics");
                assertThrows(
                        IOException.class,
                        () -> HttpClient.newHttpClient()
                                .send(
                                        HttpRequest.newBuilder(plain)
                                                .timeout(Duration.ofSeconds(5))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString()),
                        "no metrics over plain HTTP on the TLS port");
            } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
            Scrape scrape = jvm.scrape();
            assertEquals(1, scrape.value("blockscope_gc_source_info", "source", gcSource), "JDK " + jdk);
            assertEquals(
                    1,
                    scrape.value(
                            "blockscope_agent_info",
                            "profile",
                            "hbase2",
                            "version",
                            AgentReferenceMetricsTest.agentVersion(scrape)));
        });
    }

    /**
     * Leaks at their sites, and GC pauses from MXBean notifications. The driver runs System.gc()
     * (G1's only full collections here) at least three times after the agent started: the agent
     * counts exactly the full collections the JVM's own GC bean counts (the standard
     * jvm_gc_collection_seconds series, in the same scrape), each one pause with its cause. Young
     * collections may precede the agent's listener, so there it counts at most the bean's number.
     */
    @Test
    void leaksAndGcPausesOnJdk11() throws Exception {
        AgentLeakTest.verify(driver("LeakingReader", 11), jvm -> {
            Scrape scrape = awaitGcAgreement(jvm);
            String full = "G1 Old Generation";
            double beanFull = scrape.value("jvm_gc_collection_seconds_count", "gc", full);
            assertTrue(
                    beanFull >= 3,
                    "the driver ran System.gc() three times:\n" + scrape.describe("jvm_gc_collection_seconds_count"));
            assertEquals(beanFull, scrape.value("blockscope_gc_collections_total", "gc", full), "full collections");
            assertEquals(
                    beanFull,
                    scrape.value("blockscope_gc_pause_seconds_count", "gc", full, "cause", "System.gc()"),
                    "each full collection is one pause, caused by System.gc():\n"
                            + scrape.describe("blockscope_gc_pause_seconds_count"));
            assertTrue(
                    scrape.value("blockscope_gc_pause_seconds_sum", "gc", full, "cause", "System.gc()") > 0,
                    "pause time measured");
            String young = "G1 Young Generation";
            assertTrue(
                    sum(scrape, "blockscope_gc_collections_total", young)
                            <= sum(scrape, "jvm_gc_collection_seconds_count", young),
                    "never more young collections than the JVM made");
            assertEquals(1, scrape.value("blockscope_gc_source_info", "source", "mxbean"));
        });
    }

    /** GC notifications arrive just after the collection: poll until both views agree (bounded). */
    private static Scrape awaitGcAgreement(DriverJvm jvm) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            Scrape scrape = jvm.scrape();
            String full = "G1 Old Generation";
            if (sum(scrape, "jvm_gc_collection_seconds_count", full)
                            == sum(scrape, "blockscope_gc_collections_total", full)
                    || System.nanoTime() > deadline) {
                return scrape;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static double sum(Scrape scrape, String name, String gc) {
        return scrape.matching(name, l -> gc.equals(l.get("gc"))).stream()
                .mapToDouble(Scrape.Sample::value)
                .sum();
    }

    @Test
    void copiesAndTheirSitesOnJdk11() {
        AgentCopyTest.verify(driver("CopyingReader", 11), "JDK 11");
    }

    /** The launcher on JDK 11 (its Java 8 entry hands over to the Java 11 launcher) attaches by pid. */
    @Test
    void lateAttachByPidOnJdk11() throws Exception {
        AgentAttachTest.verify(hbase26(), TestJdks.require(11));
    }

    /** Fault matrix, missing classes: hbase-server absent, only the cell probes are enabled. */
    @Test
    void missingTargetClassesOnJdk11() {
        AgentCopyTest.verifyWithoutServer(driver("CopyingReader", 11), "JDK 11");
    }

    /** Fault matrix, bad arguments: one line naming the option; the driver's work completes. */
    @Test
    void badOptionOnJdk11() {
        try (DriverJvm jvm =
                driver("ReferenceDriver", 11).agent("leak.sampel=8").start()) {
            runToTheEnd(jvm);
            List<String> agentLines = agentLines(jvm);
            assertEquals(1, agentLines.size(), jvm.log());
            assertTrue(agentLines.get(0).contains("unknown option 'leak.sampel'"), jvm.log());
            assertTrue(agentLines.get(0).contains("agent disabled, the application runs without it"), jvm.log());
        }
    }

    /** Fault matrix, taken port: the endpoint is left out, probes still count, the driver completes. */
    @Test
    void takenPortOnJdk11() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                DriverJvm jvm = driver("ReferenceDriver", 11)
                        .hostPort("127.0.0.1:" + taken.getLocalPort())
                        .agent("")
                        .start()) {
            runToTheEnd(jvm);
            assertTrue(
                    jvm.agentLine(Pattern.compile(
                                    "cannot serve metrics on .*:" + taken.getLocalPort() + ".*the port is taken"))
                            .isPresent(),
                    jvm.log());
            assertFalse(jvm.log().contains("Exception in thread"), jvm.log());
        }
    }

    /**
     * The launcher reads the target's {@code java.specification.version} through the Attach API and
     * leaves a JVM older than 11 alone. No Java 8 runs here: the target is a JDK 11 whose command line
     * says 1.8 (JDK 11 lets -D set that property; the launcher's check is the real, unchanged one).
     */
    @Test
    void attachLeavesATooOldTargetAlone() throws Exception {
        try (DriverJvm jvm = driver("ReferenceDriver", 11)
                .jvmOption("-Djava.specification.version=1.8")
                .start()) {
            jvm.await("cached");
            Command.Result launcher =
                    AgentLauncher.run(JavaCommand.testJava(), "attach", Long.toString(jvm.pid()), "127.0.0.1:0");
            String output = launcher.output();
            assertEquals(1, launcher.exitCode(), output);
            assertTrue(
                    Pattern.compile("\\[blockscope\\] attach: needs Java 11 or newer, this is 11\\.[0-9.+]+;"
                                    + " the agent was not loaded into " + jvm.pid() + ", which runs normally")
                            .matcher(output)
                            .find(),
                    output);
            jvm.proceed();
            jvm.await("holding");
            jvm.proceed();
            jvm.await("released");
            assertEquals(0, jvm.finish(), jvm.log());
            assertTrue(agentLines(jvm).isEmpty(), "nothing of the agent ran in the target:\n" + jvm.log());
        }
    }

    private static void runToTheEnd(DriverJvm jvm) {
        jvm.await("cached");
        jvm.proceed();
        jvm.await("holding");
        jvm.proceed();
        jvm.await("released");
        assertEquals(0, jvm.finish(), jvm.log());
    }

    private static List<String> agentLines(DriverJvm jvm) {
        return jvm.lines().stream().filter(l -> l.contains("[blockscope]")).toList();
    }
}
