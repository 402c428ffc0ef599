package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.PrometheusServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes what Prometheus stored from a real RegionServer's agent as promtool {@code input_series}
 * (one value per second, {@code _} where a series had no sample), so rule unit tests run on the series
 * a RegionServer really exports. The scrape address is replaced by {@value #INSTANCE}; nothing else
 * is changed. Native histograms (GC pauses, hold times) are left out: their promtool notation differs.
 */
final class SeriesCapture {

    static final String INSTANCE = "regionserver-1:9404";

    private SeriesCapture() {}

    static void write(
            PrometheusServer prometheus, String instance, Instant start, Instant end, Path file, String comment)
            throws IOException {
        JsonNode result = prometheus.queryRange(
                "{job=\"" + RegionServerPrometheus.JOB + "\",__name__=~\"blockscope_.*|up\"}",
                start,
                end,
                Duration.ofSeconds(1));
        long first = start.getEpochSecond();
        int steps = (int) (end.getEpochSecond() - first) + 1;
        Map<String, String> lines = new TreeMap<>();
        for (JsonNode series : result) {
            if (!series.has("values")) {
                continue;
            }
            String[] values = new String[steps];
            java.util.Arrays.fill(values, "_");
            for (JsonNode sample : series.path("values")) {
                int index = (int) (sample.path(0).asLong() - first);
                if (index >= 0 && index < steps) {
                    values[index] = number(sample.path(1).asText());
                }
            }
            lines.put(selector(series.path("metric"), instance), String.join(" ", values));
        }
        List<String> out = new ArrayList<>();
        for (String line : comment.split("\n")) {
            out.add("# " + line);
        }
        out.add("interval: 1s");
        out.add("input_series:");
        lines.forEach((selector, values) -> {
            out.add("  - series: '" + selector + "'");
            out.add("    values: '" + values + "'");
        });
        Files.createDirectories(file.getParent());
        Files.write(file, out);
    }

    private static String number(String text) {
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    private static String selector(JsonNode metric, String instance) {
        StringBuilder out = new StringBuilder(metric.path("__name__").asText()).append('{');
        Map<String, String> labels = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = metric.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            if (!label.getKey().equals("__name__")) {
                String value = label.getValue().asText();
                labels.put(
                        label.getKey(), label.getKey().equals("instance") && value.equals(instance) ? INSTANCE : value);
            }
        }
        String separator = "";
        for (Map.Entry<String, String> label : labels.entrySet()) {
            out.append(separator)
                    .append(label.getKey())
                    .append("=\"")
                    .append(label.getValue()
                            .replace("\\", "\\\\")
                            .replace("\"", "\\\"")
                            .replace("'", "''"))
                    .append('"');
            separator = ",";
        }
        return out.append('}').toString();
    }
}
