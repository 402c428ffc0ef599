package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.PrometheusServer;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GC recording rules and alerts over native histograms, in a real Prometheus (promtool 2.42 cannot
 * load native histograms in unit tests), and over the classic series of the same histograms when
 * Prometheus runs without native histograms (Prometheus 2.x without the feature flag, 3.x without
 * scrape_native_histograms): the rules fall back to _bucket and _sum. Each on Debian's Prometheus 2.42
 * and on Prometheus 3.16 ({@link PrometheusVersion}), native histograms switched on the way each needs. Two fixture endpoints export {@code blockscope_gc_pause_seconds}
 * (through client_java's protobuf writer, as the exporter does) and, once Prometheus has scraped them at
 * zero, record one known batch of pauses each:
 * <ul>
 *   <li>{@code busy}: 1000 pauses of 20 ms, 20 s paused: a p99 of 20 ms, and 20 s / 5 min = 6.7% of
 *       the time paused, above the 5% of BlockscopeGcPauseTimeHigh;</li>
 *   <li>{@code spiky}: 90 pauses of 10 ms and 10 of 400 ms: a p99 of about 400 ms, above the 200 ms of
 *       BlockscopeGcPauseP99High, and only 4.9 s paused.</li>
 * </ul>
 * While a series is younger than the 5 minute window, rate() divides its (slightly extrapolated)
 * increase by the whole window, so the ratio is about (pause seconds) / 300 s.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on alert windows and scrapes: overlaps the other classes
class NativeHistogramRulesIT {

    /** Recording rules this test covers (AlertRulesTest checks every rule is tested somewhere). */
    static final Set<String> RULES_TESTED_THERE =
            Set.of("instance:blockscope_gc_pause_seconds:p99_rate5m", "instance:blockscope_gc_pause_time:ratio_rate5m");

    static Stream<Arguments> versionsAndNativeHistograms() {
        return Stream.of(PrometheusVersion.values())
                .flatMap(v -> Stream.of(Arguments.of(v, true), Arguments.of(v, false)));
    }

    @ParameterizedTest(name = "{0}, native histograms {1}")
    @MethodSource("versionsAndNativeHistograms")
    void gcRulesAndAlertsWorkOnNativeAndClassicHistograms(
            PrometheusVersion version, boolean nativeHistograms, @TempDir Path dir) throws Exception {
        version.prometheus(); // skips (locally) before the fixtures start when this release is missing
        Fixture busy = Fixture.start();
        Fixture spiky = Fixture.start();
        // Create the series at zero before the first scrape, so rate() sees every observation below.
        var busyYoung = busy.pauses.labelValues("G1 Young Generation", "G1 Evacuation Pause");
        var spikyYoung = spiky.pauses.labelValues("G1 Young Generation", "G1 Evacuation Pause");
        var spikyOld = spiky.pauses.labelValues("G1 Old Generation", "System.gc()");
        Path alerts = dir.resolve("alerts.yml");
        RuleFile.alerts().writeWithFor(alerts, f -> "0s");
        try (PrometheusServer prometheus = version.setup(dir.resolve("prometheus"), nativeHistograms)
                .targets(List.of(busy.target(), spiky.target()))
                .ruleFiles(List.of(ModulePaths.recordingRules(), alerts))
                .start()) {
            // The form Prometheus stores is the one asked for, and only that one (so the rules below are
            // tested on it, not on a fallback): native histograms come only through a protobuf scrape.
            String scraped = nativeHistograms ? "blockscope_gc_pause_seconds" : "blockscope_gc_pause_seconds_count";
            String absent = nativeHistograms ? "blockscope_gc_pause_seconds_count" : "blockscope_gc_pause_seconds";
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(30),
                            () -> prometheus
                                            .query("count(" + scraped + ") == 3")
                                            .size()
                                    == 1),
                    "the fixture's three histograms were not scraped as " + scraped + ": "
                            + prometheus.query("count by (__name__) ({__name__=~\"blockscope_gc_pause_seconds.*\"})")
                            + "\n"
                            + prometheus.logTail());
            assertEquals(0, prometheus.query(absent).size(), absent + " stored as well: " + prometheus.query(absent));
            for (int i = 0; i < 1000; i++) {
                busyYoung.observe(0.020);
            }
            for (int i = 0; i < 90; i++) {
                spikyYoung.observe(0.010);
            }
            for (int i = 0; i < 10; i++) {
                spikyOld.observe(0.400);
            }

            String p99 = "instance:blockscope_gc_pause_seconds:p99_rate5m{instance=\"%s\"}";
            String ratio = "instance:blockscope_gc_pause_time:ratio_rate5m{instance=\"%s\"}";
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(30),
                            () -> value(prometheus, p99, spiky) > 0 && value(prometheus, p99, busy) > 0),
                    "no p99 recorded for the fixtures\n" + prometheus.logTail());
            // Native buckets (schema 3) are ~9% wide: 400 ms lies in (389 ms, 424 ms], 20 ms in (18.3 ms, 20 ms].
            // Classic buckets (client_java's defaults) interpolate linearly: 400 ms in (250 ms, 500 ms] gives
            // 250 + 250 * 9/10 = 475 ms; 20 ms in (10 ms, 25 ms] gives 10 + 15 * 0.99 = 24.85 ms.
            double spikyP99 = value(prometheus, p99, spiky);
            double busyP99 = value(prometheus, p99, busy);
            if (nativeHistograms) {
                assertTrue(
                        spikyP99 > 0.38 && spikyP99 <= 0.43,
                        "p99 of 90 x 10 ms + 10 x 400 ms should be about 400 ms, was " + spikyP99);
                assertTrue(
                        busyP99 > 0.018 && busyP99 <= 0.021,
                        "p99 of 1000 x 20 ms should be about 20 ms, was " + busyP99);
            } else {
                assertEquals(0.475, spikyP99, 0.001, "classic p99 of 90 x 10 ms + 10 x 400 ms");
                assertEquals(0.02485, busyP99, 0.0001, "classic p99 of 1000 x 20 ms");
            }
            // rate() extrapolates the increase by up to an interval and a half beyond the samples it has;
            // ten seconds of samples keep that under about 15%.
            Thread.sleep(10_000);
            double busyPaused = value(prometheus, ratio, busy) * 300;
            assertTrue(
                    busyPaused >= 19 && busyPaused <= 24,
                    "20 s paused in the window, the ratio rule implies " + busyPaused + " s");
            double spikyPaused = value(prometheus, ratio, spiky) * 300;
            assertTrue(
                    spikyPaused >= 4.6 && spikyPaused <= 5.9,
                    "4.9 s paused in the window, the ratio rule implies " + spikyPaused + " s");

            // The fixtures export no blockscope_agent_info, so BlockscopeAgentNotAttached fires for both too.
            Set<String> expected = Set.of(
                    "BlockscopeGcPauseP99High " + spiky.target(),
                    "BlockscopeGcPauseTimeHigh " + busy.target(),
                    "BlockscopeAgentNotAttached " + spiky.target(),
                    "BlockscopeAgentNotAttached " + busy.target());
            assertTrue(
                    Poll.until(Duration.ofSeconds(20), () -> firing(prometheus).equals(expected)),
                    "expected exactly " + expected + " firing, got " + firing(prometheus));
        } finally {
            busy.close();
            spiky.close();
        }
    }

    private static double value(PrometheusServer prometheus, String template, Fixture fixture) {
        JsonNode result = prometheus.query(String.format(template, fixture.target()));
        return result.size() == 1
                ? Double.parseDouble(result.path(0).path("value").path(1).asText())
                : Double.NaN;
    }

    private static Set<String> firing(PrometheusServer prometheus) {
        Set<String> firing = new HashSet<>();
        for (JsonNode alert : prometheus.alerts()) {
            if ("firing".equals(alert.path("state").asText())) {
                firing.add(alert.path("labels").path("alertname").asText() + " "
                        + alert.path("labels").path("instance").asText());
            }
        }
        return firing;
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
                ExpositionFormatWriter writer =
                        formats.findWriter(exchange.getRequestHeaders().getFirst("Accept"));
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
