package io.blockscope.agent.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** One scrape of an agent's /metrics in the Prometheus text format, by series. */
final class Scrape {

    private final Map<String, Double> series;
    private final String text;

    private Scrape(String text) {
        this.text = text;
        this.series = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            series.put(canonical(line.substring(0, space)), Double.parseDouble(line.substring(space + 1)));
        }
    }

    static Scrape of(int port) throws Exception {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .header("Accept", "text/plain; version=0.0.4")
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("scrape returned " + response.statusCode() + ": " + response.body());
        }
        return new Scrape(response.body());
    }

    /** The value of {@code name} with exactly these labels (name, value pairs), or null. */
    Double value(String name, String... labels) {
        Map<String, String> sorted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            sorted.put(labels[i], labels[i + 1]);
        }
        return series.get(key(name, sorted));
    }

    /** Like {@link #value} but 0 when absent, for counters not yet touched. */
    double count(String name, String... labels) {
        Double v = value(name, labels);
        return v == null ? 0 : v;
    }

    /** The sum of every series named {@code name}, whatever its labels (0 when there is none). */
    double sum(String name) {
        return series.entrySet().stream()
                .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    /** The number of series whose name starts with {@code prefix}. */
    long seriesCount(String prefix) {
        return series.keySet().stream().filter(k -> k.startsWith(prefix)).count();
    }

    Map<String, Double> series() {
        return series;
    }

    String text() {
        return text;
    }

    private static String canonical(String nameAndLabels) {
        int brace = nameAndLabels.indexOf('{');
        if (brace < 0) {
            return nameAndLabels;
        }
        String name = nameAndLabels.substring(0, brace);
        String body = nameAndLabels.substring(brace + 1, nameAndLabels.lastIndexOf('}'));
        Map<String, String> labels = new TreeMap<>();
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            String key = body.substring(i, eq).trim();
            int start = body.indexOf('"', eq) + 1;
            StringBuilder value = new StringBuilder();
            int j = start;
            while (body.charAt(j) != '"') {
                if (body.charAt(j) == '\\') {
                    j++;
                }
                value.append(body.charAt(j));
                j++;
            }
            labels.put(key, value.toString());
            i = j + 1;
            while (i < body.length() && (body.charAt(i) == ',' || body.charAt(i) == ' ')) {
                i++;
            }
        }
        return key(name, labels);
    }

    private static String key(String name, Map<String, String> labels) {
        return labels.isEmpty() ? name : name + labels;
    }
}
