package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** What the leak tests wait for and read: the agent's leak series and the shipped alerts' expressions. */
final class LeakChecks {

    /** The agent's default leak.age. */
    static final Duration LEAK_AGE = Duration.ofSeconds(60);

    private LeakChecks() {}

    /**
     * A scrape once buffers taken now have been out longer than the agent's suspect age (5 s): from
     * then on it samples every buffer take. Prometheus scrapes every few seconds; a test that has
     * none running yet stands in for it.
     */
    static void scrapeAfterSuspectAge(RegionServerProcess server) {
        RegionServerProcess.sleep(6_000);
        Scrape.of(server.metricsUri());
    }

    /**
     * Waits past leak.age until the agent counts at least {@code atLeast} pool buffers stuck and
     * every buffer the pool has in use among them, in one scrape (the load is over: any buffer still
     * out is stuck), and asserts that; returns the count.
     */
    static double awaitStuck(RegionServerProcess server, double atLeast) {
        return awaitAllStuck(
                server, LEAK_AGE.plusSeconds(30), atLeast, LeakChecks::stuck, LeakChecks::inUse, "pool buffers in use");
    }

    /**
     * The same for block references: every outstanding one stuck, at least one. Stuck references are
     * counted between leak.age and leak.age plus half of it after their last touch.
     */
    static double awaitStuckRefs(RegionServerProcess server) {
        return awaitAllStuck(
                server,
                LEAK_AGE.multipliedBy(2),
                1,
                LeakChecks::stuckRefs,
                LeakChecks::outstanding,
                "outstanding block references");
    }

    private static double awaitAllStuck(
            RegionServerProcess server,
            Duration within,
            double atLeast,
            ToDoubleFunction<Scrape> stuck,
            ToDoubleFunction<Scrape> out,
            String what) {
        Instant deadline = Instant.now().plus(within);
        Scrape scrape = Scrape.of(server.metricsUri());
        while (!(stuck.applyAsDouble(scrape) >= atLeast && stuck.applyAsDouble(scrape) == out.applyAsDouble(scrape))
                && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(1_000);
            scrape = Scrape.of(server.metricsUri());
        }
        double counted = stuck.applyAsDouble(scrape);
        System.out.printf("%s: %.0f, stuck %.0f%n", what, out.applyAsDouble(scrape), counted);
        assertEquals(out.applyAsDouble(scrape), counted, "every one of the " + what + " is stuck, counted exactly");
        return counted;
    }

    private static double stuckRefs(Scrape scrape) {
        return scrape.sum("blockscope_block_refs_stuck");
    }

    private static double outstanding(Scrape scrape) {
        return scrape.sum("blockscope_block_refs_outstanding");
    }

    static double stuck(Scrape scrape) {
        return scrape.value("blockscope_allocator_pool_buffers_stuck");
    }

    static double inUse(Scrape scrape) {
        return scrape.value("blockscope_allocator_pool_buffers", "state", "in_use");
    }

    /**
     * The rows the shipped alert {@code name}'s expression returns: once it returns some, when
     * {@code expected}; otherwise after several rule evaluations over the server's scrapes.
     */
    static JsonNode awaitAlertExpression(PrometheusServer prometheus, String name, boolean expected) {
        String expression = prometheus.alertExpression(name);
        Instant deadline = Instant.now().plusSeconds(expected ? 30 : 5);
        JsonNode rows = prometheus.query(expression);
        while ((rows.size() > 0) != expected && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(500);
            rows = prometheus.query(expression);
        }
        return rows;
    }

    static Scrape awaitScrape(RegionServerProcess server, Predicate<Scrape> condition) {
        Instant deadline = Instant.now().plusSeconds(30);
        Scrape scrape = Scrape.of(server.metricsUri());
        while (!condition.test(scrape) && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(500);
            scrape = Scrape.of(server.metricsUri());
        }
        return scrape;
    }

    /**
     * What the agent's endpoint serves at {@code path}: its live page's refreshing part ({@code /live})
     * or, asked for OpenMetrics, the exposition with exemplars ({@code /metrics}).
     */
    static String endpoint(RegionServerProcess server, String path, String accept) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(server.metricsUri().resolve(path))
                                    .header("Accept", accept)
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), path + ": " + response.body());
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Predicate<Map<String, String>> kind(String kind) {
        return labels -> kind.equals(labels.get("kind"));
    }

    static List<String> labelValues(JsonNode rows, String label) {
        List<String> values = new ArrayList<>();
        rows.forEach(row -> values.add(row.path("metric").path(label).asText()));
        return values.stream().distinct().sorted().collect(Collectors.toList());
    }

    static String describe(List<Scrape.Sample> samples) {
        return samples.stream()
                .filter(s -> s.value() > 0)
                .map(s -> s.labels().get("site") + " " + s.labels().get("reason") + "=" + (long) s.value())
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
