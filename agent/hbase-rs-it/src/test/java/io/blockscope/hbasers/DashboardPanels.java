package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.dashboards.GrafanaDashboard;
import io.blockscope.dashboards.PromQl;
import io.blockscope.testsupport.PrometheusServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The shipped dashboards' queries (read from their JSON by the dashboards module's {@link GrafanaDashboard},
 * as its end-to-end test does on the example server), each run against the RegionServer's Prometheus with
 * the dashboard variables set to that server. A panel whose description says {@value #MARK} shows (some)
 * series only the example server exports. The dashboards' annotation (firing alerts) is left out: with
 * the shipped {@code for}s no alert fires within a test (HBaseDemoTest sees them fire, with short ones).
 */
final class DashboardPanels {

    static final String MARK = "Example server only";

    /** What one dashboard query returned: Prometheus' result array in {@code answer}. */
    record Result(GrafanaDashboard.Query query, String expr, JsonNode answer, boolean data, boolean exampleServerOnly) {
        String describe() {
            return query.where() + ": " + expr;
        }

        /** Whether a series of the answer has {@code label} = {@code value}. */
        boolean hasSeries(String label, String value) {
            for (JsonNode series : answer) {
                if (value.equals(series.path("metric").path(label).asText(null))) {
                    return true;
                }
            }
            return false;
        }
    }

    private DashboardPanels() {}

    static List<Result> run(PrometheusServer prometheus, Map<String, String> server, Instant start, Instant end) {
        Path grafana = Path.of(RegionServerProcess.required("blockscope.dashboards"), "grafana");
        return run(prometheus, grafana, server, start, end, Duration.ofSeconds(1));
    }

    /**
     * The queries of the dashboards in {@code grafana} (a render's {@code grafana/} folder), range queries
     * stepping by the scrape interval.
     */
    static List<Result> run(
            PrometheusServer prometheus,
            Path grafana,
            Map<String, String> server,
            Instant start,
            Instant end,
            Duration scrapeInterval) {
        Map<String, String> variables = new HashMap<>(server);
        // Grafana's $__rate_interval is at least four scrape intervals (4 s at the tests' usual 1 s scrape).
        variables.put("__rate_interval", scrapeInterval.multipliedBy(4).toSeconds() + "s");
        variables.put("__interval", scrapeInterval.toSeconds() + "s");
        variables.put("__range", (Duration.between(start, end).toSeconds() + 1) + "s");
        List<Result> results = new ArrayList<>();
        for (GrafanaDashboard dashboard : GrafanaDashboard.all(grafana)) {
            for (GrafanaDashboard.Query query : dashboard.queries()) {
                if (query.refId().equals("annotation")) {
                    continue;
                }
                String expr = PromQl.resolveGrafanaVariables(query.expr(), variables);
                JsonNode answer = query.instant()
                        ? prometheus.query(expr)
                        : prometheus.queryRange(expr, start, end, scrapeInterval);
                JsonNode panel = query.panelId() == 0 ? null : dashboard.panel(query.panelId());
                boolean marked =
                        panel != null && panel.path("description").asText().contains(MARK);
                results.add(new Result(query, expr, answer, PrometheusServer.hasNumber(answer), marked));
            }
        }
        return results;
    }

    /** Titles of the panels marked {@value #MARK}. */
    static TreeSet<String> exampleServerOnly(List<Result> results) {
        TreeSet<String> titles = new TreeSet<>();
        results.stream()
                .filter(Result::exampleServerOnly)
                .forEach(r -> titles.add(r.query().panelTitle()));
        return titles;
    }
}
