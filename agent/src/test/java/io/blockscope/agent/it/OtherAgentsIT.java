package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.OtherAgentsHost;
import io.blockscope.testsupport.FreePort;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One JVM with three agents, as an operator's fleet has them: blockscope, the Prometheus JMX
 * exporter (io.prometheus.jmx:jmx_prometheus_javaagent) and the OpenTelemetry Java agent
 * (io.opentelemetry.javaagent:opentelemetry-javaagent), in both orders of their {@code -javaagent}
 * flags. Each endpoint serves correct metrics, the host's main ends with status 0, and blockscope's
 * {@code jvm.metrics=off,gc.source=off} leave the JVM's series to the other two. The agents' jars
 * are copied next to the built agent jar (target/other-agents) by the pom.
 */
class OtherAgentsIT {

    private static final int LOOKUPS = 4_000;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void blockscopeFirstWithItsJvmMetrics() throws Exception {
        int jmxPort = FreePort.pick();
        int otelPort = FreePort.pick();
        List<String> agents = new ArrayList<>();
        agents.add(blockscope(""));
        agents.add(jmxExporter(jmxPort));
        agents.addAll(otel(otelPort));
        try (ChildJvm child = start(agents)) {
            Scrape scrape = checkAll(child, jmxPort, otelPort);
            assertTrue(scrape.seriesCount("jvm_memory_used_bytes") > 0, scrape.text());
            assertTrue(scrape.seriesCount("process_cpu_seconds_total") > 0, scrape.text());
            assertEquals(1, scrape.value("blockscope_gc_source_info", "source", "jfr"), scrape.text());
            exitsNormally(child);
        }
    }

    @Test
    void blockscopeLastLeavesJvmAndGcSeriesToTheOthers() throws Exception {
        int jmxPort = FreePort.pick();
        int otelPort = FreePort.pick();
        List<String> agents = new ArrayList<>(otel(otelPort));
        agents.add(jmxExporter(jmxPort));
        agents.add(blockscope(",jvm.metrics=off,gc.source=off"));
        try (ChildJvm child = start(agents)) {
            Scrape scrape = checkAll(child, jmxPort, otelPort);
            List<String> jvm = scrape.all().stream()
                    .map(Scrape.Sample::toString)
                    .filter(k -> k.startsWith("jvm_") || k.startsWith("process_"))
                    .collect(Collectors.toList());
            assertEquals(List.of(), jvm, "blockscope serves no jvm_*/process_* series with jvm.metrics=off");
            assertEquals(0, scrape.seriesCount("blockscope_gc_collections"), scrape.text());
            assertEquals(0, scrape.seriesCount("blockscope_gc_pause_seconds"), scrape.text());
            assertEquals(1, scrape.value("blockscope_gc_source_info", "source", "off"), scrape.text());
            exitsNormally(child);
        }
    }

    /** Every agent's endpoint, checked against what the host did; returns blockscope's scrape. */
    private Scrape checkAll(ChildJvm child, int jmxPort, int otelPort) throws Exception {
        int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));

        // blockscope: its counters equal the host's lookups (the expectations of CheckoutMatchingIT).
        Scrape scrape = Scrape.of(port);
        assertEquals(
                LOOKUPS / 2 + 1,
                scrape.count("blockscope_block_cache_gets_total", "tier", "l3", "result", "hit"),
                scrape.text());
        assertEquals(LOOKUPS / 2, scrape.count("blockscope_block_cache_gets_total", "tier", "l3", "result", "miss"));
        assertEquals(LOOKUPS / 4, scrape.count("blockscope_block_cache_returns_total", "tier", "l3"));
        assertEquals(1, scrape.value("blockscope_block_refs_outstanding", "tier", "l3"));
        assertEquals(0, scrape.sum("blockscope_agent_advice_errors_total"), scrape.text());

        // The JMX exporter: the host's MBean with its known value, and its own jvm_* series.
        String jmx = awaitMetrics(jmxPort, text -> text.contains("jvm_memory_used_bytes"));
        assertEquals(
                (double) LOOKUPS,
                single(jmx, "^io_blockscope_agenttest_otheragentshost_lookups(?:\\{[^}]*\\})? (\\S+)$"),
                jmx);
        assertTrue(single(jmx, "^jvm_memory_used_bytes\\{area=\"heap\"[^}]*\\} (\\S+)$") > 0, jmx);

        // The OpenTelemetry agent: its runtime metrics (semantic-convention names) with a live heap.
        String otel = awaitMetrics(otelPort, text -> text.contains("jvm_memory_used_bytes{"));
        double otelHeap = sum(otel, "^jvm_memory_used_bytes\\{[^}]*jvm_memory_type=\"heap\"[^}]*\\} (\\S+)$");
        assertTrue(otelHeap > 0 && otelHeap <= 256 << 20, "heap used within -Xmx256m: " + otelHeap + "\n" + otel);
        assertTrue(sum(otel, "^jvm_thread_count(?:\\{[^}]*\\})? (\\S+)$") >= 1, otel);

        List<String> warnings =
                child.agentLines().stream().filter(l -> l.contains(" WARN ")).collect(Collectors.toList());
        assertEquals(List.of(), warnings, child.transcript());
        return scrape;
    }

    private static void exitsNormally(ChildJvm child) throws Exception {
        child.send("exit");
        assertEquals(0, child.waitFor(), child.transcript());
        assertTrue(child.out().contains("host done"), child.transcript());
    }

    private ChildJvm start(List<String> agents) throws IOException {
        ChildJvm.Builder builder = ChildJvm.builder(ChildJvm.java17()).classPath(ChildJvm.classPath());
        for (String option : agents) {
            builder.jvmOption(option);
        }
        return builder.start(OtherAgentsHost.class.getName(), Integer.toString(LOOKUPS));
    }

    private static String blockscope(String options) throws Exception {
        return "-javaagent:" + ChildJvm.agentJar() + "=127.0.0.1:0,profile=" + ZeroAllocationIT.fakeProfile()
                + ",leak.sample=1,leak.rate=0,copy.sample=0" + options;
    }

    private String jmxExporter(int port) throws IOException {
        Path config = dir.resolve("jmx-exporter.yaml");
        Files.writeString(
                config,
                "lowercaseOutputName: true\nincludeObjectNames: [\"io.blockscope.agenttest:*\"]\n"
                        + "rules:\n  - pattern: \".*\"\n");
        return "-javaagent:" + otherAgent("jmx_prometheus_javaagent.jar") + "=127.0.0.1:" + port + ":" + config;
    }

    private static List<String> otel(int port) {
        return List.of(
                "-javaagent:" + otherAgent("opentelemetry-javaagent.jar"),
                "-Dotel.metrics.exporter=prometheus",
                "-Dotel.exporter.prometheus.host=127.0.0.1",
                "-Dotel.exporter.prometheus.port=" + port,
                "-Dotel.traces.exporter=none",
                "-Dotel.logs.exporter=none");
    }

    private static Path otherAgent(String name) {
        Path jar = ChildJvm.agentJar().resolveSibling("other-agents").resolve(name);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: the pom copies it in pre-integration-test (mvn verify)");
        }
        return jar;
    }

    /** Polls an agent's /metrics until it answers 200 with text {@code ready} accepts. */
    private static String awaitMetrics(int port, Predicate<String> ready) throws Exception {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = "(no answer)";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .header("Accept", "text/plain; version=0.0.4")
                                .timeout(Duration.ofSeconds(20))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + "\n" + response.body();
                if (response.statusCode() == 200 && ready.test(response.body())) {
                    return response.body();
                }
            } catch (IOException e) {
                last = e.toString(); // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no metrics on port " + port + ": " + last);
    }

    /** The value of the one line matching {@code regex} (its group 1 is the value). */
    private static double single(String text, String regex) {
        List<Double> values = values(text, regex);
        assertEquals(1, values.size(), "lines matching " + regex);
        return values.get(0);
    }

    private static double sum(String text, String regex) {
        return values(text, regex).stream().mapToDouble(Double::doubleValue).sum();
    }

    private static List<Double> values(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        List<Double> values = new ArrayList<>();
        while (m.find()) {
            values.add(Double.parseDouble(m.group(1)));
        }
        return values;
    }
}
