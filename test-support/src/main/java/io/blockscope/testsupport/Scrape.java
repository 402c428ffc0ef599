package io.blockscope.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One scrape in the Prometheus text format (0.0.4), parsed into samples for assertions. Lookups that
 * expect one sample fail with the scrape's lines of that name, so a wrong figure shows what was exported.
 */
public class Scrape {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One sample line: metric name, labels (in the order written), value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        @Override
        public String toString() {
            return name + labels + " " + value;
        }
    }

    private final String text;
    private final List<Sample> samples;

    /** Parses {@code text}; for subclasses that name a scrape of their own. */
    protected Scrape(String text) {
        this.text = text;
        List<Sample> parsed = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                parsed.add(sample(line));
            }
        }
        this.samples = Collections.unmodifiableList(parsed);
    }

    public static Scrape parse(String text) {
        return new Scrape(text);
    }

    /** Scrapes {@code http://127.0.0.1:PORT/metrics}. */
    public static Scrape of(int port) {
        return of(URI.create("http://127.0.0.1:" + port + "/metrics"));
    }

    public static Scrape of(URI uri) {
        return parse(fetch(uri, HTTP, null));
    }

    /** A scrape with {@code client} (e.g. one trusting a test certificate) and an Authorization header. */
    public static Scrape of(URI uri, HttpClient client, String authorization) {
        return parse(fetch(uri, client, authorization));
    }

    /** The text-format body of {@code uri}; fails on any answer but 200. */
    protected static String fetch(URI uri, HttpClient client, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Accept", "text/plain; version=0.0.4")
                .timeout(Duration.ofSeconds(20))
                .GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        "scrape of " + uri + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new AssertionError("cannot scrape " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted scraping " + uri, e);
        }
    }

    /** The scrape as it was received. */
    public String text() {
        return text;
    }

    public List<Sample> all() {
        return samples;
    }

    public List<Sample> matching(String name) {
        return matching(name, labels -> true);
    }

    /** The samples named {@code name} whose labels pass {@code labels}. */
    public List<Sample> matching(String name, Predicate<Map<String, String>> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && labels.test(s.labels()))
                .collect(Collectors.toList());
    }

    public boolean has(String name) {
        return !matching(name).isEmpty();
    }

    /** The one sample {@code name} whose labels are exactly these (name, value, name, value...). */
    public double value(String name, String... labels) {
        Map<String, String> wanted = labels(labels);
        List<Sample> found = matching(name, wanted::equals);
        if (found.size() != 1) {
            throw new AssertionError(
                    "expected one sample " + name + wanted + ", found " + found.size() + ":\n" + describe(name));
        }
        return found.get(0).value();
    }

    /** Like {@link #value} but 0 when there is no such sample: a counter not yet touched. */
    public double count(String name, String... labels) {
        Map<String, String> wanted = labels(labels);
        return matching(name, wanted::equals).isEmpty() ? 0 : value(name, labels);
    }

    /** The sum of every sample named {@code name}, whatever its labels (0 when there is none). */
    public double sum(String name) {
        return sum(name, labels -> true);
    }

    /** The sum of {@link #matching(String, Predicate)}: 0 when there are none. */
    public double sum(String name, Predicate<Map<String, String>> labels) {
        return matching(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    /** How many samples have a name starting with {@code prefix}. */
    public long seriesCount(String prefix) {
        return samples.stream().filter(s -> s.name().startsWith(prefix)).count();
    }

    /** The samples named {@code name}, one a line, for failure messages. */
    public String describe(String name) {
        String found = matching(name).stream().map(s -> "  " + s).collect(Collectors.joining("\n"));
        return found.isEmpty() ? "  (no " + name + " series at all)" : found;
    }

    /** A filter on one label's value. */
    public static Predicate<Map<String, String>> label(String key, String value) {
        return labels -> value.equals(labels.get(key));
    }

    private static Map<String, String> labels(String... pairs) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            labels.put(pairs[i], pairs[i + 1]);
        }
        return labels;
    }

    /** {@code name{a="x",b="y"} value [timestamp]}, with \\ \" \n escapes in label values. */
    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        Map<String, String> labels = new LinkedHashMap<>();
        String name;
        int rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            int i = brace + 1;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq).trim();
                StringBuilder value = new StringBuilder();
                int j = line.indexOf('"', eq) + 1;
                for (; line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                }
                labels.put(key, value.toString());
                i = j + 1;
                while (line.charAt(i) == ',' || line.charAt(i) == ' ') {
                    i++;
                }
            }
            rest = i + 1;
        } else {
            name = line.substring(0, space);
            rest = space;
        }
        return new Sample(name, labels, number(line.substring(rest).trim().split("\\s+")[0]));
    }

    private static double number(String text) {
        switch (text) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                return Double.parseDouble(text); // NaN included
        }
    }
}
