package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Whether two instant-query answers are the same: the same series (label sets, a few labels such as a
 * replica label left out) with values equal within a tolerance. Two Prometheus servers scraping one target
 * sample it at different moments, so their values may differ by what changes between two scrapes; the
 * tolerance says how much.
 *
 * @param relative the largest allowed difference as a share of the larger value
 * @param absolute a difference always allowed (values near zero)
 */
public record AnswerComparison(double relative, double absolute, Set<String> ignoredLabels) {

    /** What was compared: the differences found, the series, and the largest relative deviation seen. */
    public record Outcome(List<String> differences, int series, double worstRelative) {}

    public Outcome compare(JsonNode expected, JsonNode actual) {
        Map<String, Double> want = byLabels(expected);
        Map<String, Double> got = byLabels(actual);
        List<String> differences = new ArrayList<>();
        if (!want.keySet().equals(got.keySet())) {
            differences.add("series " + got.keySet() + " where " + want.keySet() + " expected");
            return new Outcome(differences, want.size(), Double.NaN);
        }
        double worst = 0;
        for (Map.Entry<String, Double> series : want.entrySet()) {
            double a = series.getValue();
            double b = got.get(series.getKey());
            if (Double.isNaN(a) && Double.isNaN(b)) {
                continue;
            }
            double diff = Math.abs(a - b);
            double scale = Math.max(Math.abs(a), Math.abs(b));
            if (scale > 0) {
                worst = Math.max(worst, diff / scale);
            }
            if (!(diff <= absolute || diff <= relative * scale)) {
                differences.add(series.getKey() + ": " + b + " where " + a + " expected");
            }
        }
        return new Outcome(differences, want.size(), worst);
    }

    /** Each series' value by its label set (sorted, ignored labels left out); a scalar under "{}". */
    Map<String, Double> byLabels(JsonNode result) {
        Map<String, Double> values = new TreeMap<>();
        if (result.size() == 2 && result.path(0).isNumber()) {
            values.put("{}", Double.parseDouble(result.path(1).asText()));
            return values;
        }
        for (JsonNode series : result) {
            Map<String, String> labels = new TreeMap<>();
            series.path("metric").fields().forEachRemaining(label -> {
                if (!ignoredLabels.contains(label.getKey())) {
                    labels.put(label.getKey(), label.getValue().asText());
                }
            });
            String key = labels.toString();
            if (values.containsKey(key)) {
                throw new AssertionError(
                        "two series with " + key + " once " + ignoredLabels + " are left out: " + result);
            }
            values.put(key, Double.parseDouble(series.path("value").path(1).asText()));
        }
        return values;
    }
}
