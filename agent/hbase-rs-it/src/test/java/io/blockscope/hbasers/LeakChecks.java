package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.Scrape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** What the leak tests wait for and read: the agent's leak series and the shipped alerts' expressions. */
final class LeakChecks {

    private LeakChecks() {}

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
