package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GC recording rules and alerts over native histograms, in a real Prometheus: promtool 2.42 cannot
 * load native histograms in unit tests. Two fixture endpoints export {@code blockscope_gc_pause_seconds}
 * with known pauses (through client_java's protobuf writer, as the exporter does):
 * <ul>
 *   <li>{@code steady}: 8 ms pauses ten times a second, so 8% of the time paused and a p99 of 8 ms;</li>
 *   <li>{@code spiky}: one batch of 90 pauses of 10 ms and 10 of 400 ms, so a p99 of about 400 ms.</li>
 * </ul>
 */
class NativeHistogramRulesIT {

    /** Recording rules this test covers (AlertRulesTest checks every rule is tested somewhere). */
    static final Set<String> RULES_TESTED_THERE = Set.of(
            "instance:blockscope_gc_pause_seconds:p99_rate5m", "instance:blockscope_gc_pause_time:ratio_rate5m");

    @Test
    void gcRulesAndAlertsWorkOnNativeHistograms(@TempDir Path dir) throws Exception {
        Fixture steady = Fixture.start();
        Fixture spiky = Fixture.start();
        ScheduledExecutorService pauses = Executors.newSingleThreadScheduledExecutor();
        Path alerts = dir.resolve("alerts.yml");
        RuleFile.alerts().writeWithFor(alerts, f -> "0s");
        try (PrometheusServer prometheus = PrometheusServer.start(dir, List.of(steady.target(), spiky.target()),
                List.of(ModulePaths.recordingRules(), alerts))) {
            // Observations start once both targets have been scraped at zero, so rate() sees all of them.
            assertTrue(PrometheusServer.await(Duration.ofSeconds(30),
                    () -> prometheus.query("count(blockscope_gc_pause_seconds) >= 2").size() == 1), prometheus.logTail());
            pauses.scheduleAtFixedRate(() -> steady.pauses.labelValues("G1 Young Generation", "G1 Evacuation Pause").observe(0.008),
                    0, 100, TimeUnit.MILLISECONDS);
            for (int i = 0; i < 90; i++) {
                spiky.pauses.labelValues("G1 Young Generation", "G1 Evacuation Pause").observe(0.010);
            }
            for (int i = 0; i < 10; i++) {
                spiky.pauses.labelValues("G1 Old Generation", "System.gc()").observe(0.400);
            }

            String p99Spiky = "instance:blockscope_gc_pause_seconds:p99_rate5m{instance=\"" + spiky.target() + "\"}";
            assertTrue(PrometheusServer.await(Duration.ofSeconds(30), () -> PrometheusServer.hasNumber(prometheus.query(p99Spiky))),
                    "no p99 recorded for the spiky target\n" + prometheus.logTail());
            double p99 = value(prometheus.query(p99Spiky));
            // Native buckets (schema 3) are ~9% wide; 400 ms lies in (389 ms, 424 ms].
            assertTrue(p99 > 0.38 && p99 <= 0.43, "p99 of 90 x 10 ms + 10 x 400 ms should be about 400 ms, was " + p99);

            // The steady target needs a few seconds of its 10/s stream for the ratio to settle.
            Thread.sleep(8000);
            double ratio = value(prometheus.query("instance:blockscope_gc_pause_time:ratio_rate5m{instance=\"" + steady.target() + "\"}"));
            assertTrue(ratio > 0.06 && ratio < 0.10, "8 ms ten times a second is 8% of the time paused, rule says " + ratio);
            double steadyP99 = value(prometheus.query("instance:blockscope_gc_pause_seconds:p99_rate5m{instance=\"" + steady.target() + "\"}"));
            assertTrue(steadyP99 > 0.007 && steadyP99 <= 0.009, "steady pauses are all 8 ms, p99 rule says " + steadyP99);

            Set<String> expected = Set.of("BlockscopeGcPauseP99High " + spiky.target(), "BlockscopeGcPauseTimeHigh " + steady.target());
            assertTrue(PrometheusServer.await(Duration.ofSeconds(20), () -> firing(prometheus).containsAll(expected)),
                    "expected " + expected + " firing, got " + firing(prometheus));
            assertTrue(!firing(prometheus).contains("BlockscopeGcPauseP99High " + steady.target()), "steady p99 is 8 ms: must not fire");
        } finally {
            pauses.shutdownNow();
            steady.close();
            spiky.close();
        }
    }

    private static Set<String> firing(PrometheusServer prometheus) {
        Set<String> firing = new HashSet<>();
        for (JsonNode alert : prometheus.alerts()) {
            if ("firing".equals(alert.path("state").asText())) {
                firing.add(alert.path("labels").path("alertname").asText() + " " + alert.path("labels").path("instance").asText());
            }
        }
        return firing;
    }

    private static double value(JsonNode result) {
        assertEquals(1, result.size(), "expected one series: " + result);
        return Double.parseDouble(result.path(0).path("value").path(1).asText());
    }

    /** A scrape endpoint with one GC pause histogram, served in whatever format Prometheus asks for. */
    private static final class Fixture implements AutoCloseable {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final Histogram pauses = Histogram.builder()
                .name("blockscope_gc_pause_seconds")
                .help("Stop-the-world pauses (test fixture)")
                .labelNames("gc", "cause")
                .register(registry);
        private final HttpServer server;

        private Fixture(HttpServer server) {
            this.server = server;
        }

        static Fixture start() throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            Fixture fixture = new Fixture(server);
            ExpositionFormats formats = ExpositionFormats.init();
            server.createContext("/metrics", exchange -> {
                ExpositionFormatWriter writer = formats.findWriter(exchange.getRequestHeaders().getFirst("Accept"));
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                writer.write(body, fixture.registry.scrape());
                exchange.getResponseHeaders().set("Content-Type", writer.getContentType());
                exchange.sendResponseHeaders(200, body.size());
                try (OutputStream out = exchange.getResponseBody()) {
                    body.writeTo(out);
                }
            });
            server.start();
            return fixture;
        }

        String target() {
            return "127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
