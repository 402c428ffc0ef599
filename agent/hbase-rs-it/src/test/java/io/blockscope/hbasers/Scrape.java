package io.blockscope.hbasers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** One scrape of the agent in the Prometheus text format; lookups fail with what was exported. */
final class Scrape {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static final class Sample {
        final String name;
        final Map<String, String> labels;
        final double value;

        Sample(String name, Map<String, String> labels, double value) {
            this.name = name;
            this.labels = labels;
            this.value = value;
        }

        @Override
        public String toString() {
            return name + labels + " " + value;
        }
    }

    final String text;
    private final List<Sample> samples;

    private Scrape(String text, List<Sample> samples) {
        this.text = text;
        this.samples = samples;
    }

    static Scrape of(URI uri) {
        HttpRequest request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("scrape of " + uri + " answered " + response.statusCode());
            }
            return parse(response.body());
        } catch (IOException e) {
            throw new AssertionError("cannot scrape " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Scrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int close = line.lastIndexOf('}');
            String name;
            String rest;
            Map<String, String> labels = new LinkedHashMap<>();
            if (brace >= 0) {
                name = line.substring(0, brace);
                Matcher m = LABEL.matcher(line.substring(brace + 1, close));
                while (m.find()) {
                    labels.put(m.group(1), m.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
                rest = line.substring(close + 1).trim();
            } else {
                int space = line.indexOf(' ');
                name = line.substring(0, space);
                rest = line.substring(space + 1).trim();
            }
            samples.add(new Sample(name, labels, Double.parseDouble(rest.split("\\s+")[0])));
        }
        return new Scrape(text, samples);
    }

    /** The one sample {@code name} whose labels are exactly these (name, value, ...). */
    double value(String name, String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i + 1 < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        List<Sample> found = matching(name, l -> l.equals(wanted));
        if (found.size() != 1) {
            throw new AssertionError(
                    "expected one sample " + name + wanted + ", found " + found.size() + ":\n" + describe(name));
        }
        return found.get(0).value;
    }

    /** Sum of the samples {@code name} whose labels pass {@code filter}. */
    double sum(String name, Predicate<Map<String, String>> filter) {
        return matching(name, filter).stream().mapToDouble(s -> s.value).sum();
    }

    List<Sample> matching(String name, Predicate<Map<String, String>> filter) {
        return samples.stream()
                .filter(s -> s.name.equals(name) && filter.test(s.labels))
                .collect(Collectors.toList());
    }

    String describe(String name) {
        String found = samples.stream()
                .filter(s -> s.name.equals(name))
                .map(s -> "  " + s)
                .collect(Collectors.joining("\n"));
        return found.isEmpty() ? "  (no " + name + " series at all)" : found;
    }
}
