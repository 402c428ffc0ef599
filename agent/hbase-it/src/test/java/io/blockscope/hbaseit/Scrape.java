package io.blockscope.hbaseit;

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

/**
 * One scrape of the agent's endpoint in the Prometheus text format, parsed into samples. Lookups
 * fail with the scrape's matching lines, so a wrong figure shows what the agent did export.
 */
final class Scrape {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;

    private Scrape(List<Sample> samples) {
        this.samples = samples;
    }

    static Scrape of(URI uri) {
        return of(uri, null);
    }

    /** A scrape over TLS with credentials when {@code secured} is not null. */
    static Scrape of(URI uri, SecuredEndpoint secured) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        if (secured != null) {
            request.header("Authorization", secured.authorization());
        }
        try {
            HttpResponse<String> response = (secured == null ? HTTP : secured.client())
                    .send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        "scrape of " + uri + " answered " + response.statusCode() + ": " + response.body());
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
            if (!line.isBlank() && !line.startsWith("#")) {
                samples.add(sample(line));
            }
        }
        return new Scrape(samples);
    }

    /** The one sample named {@code name} with exactly these labels (name, value, name, value...). */
    double value(String name, String... labels) {
        Map<String, String> wanted = labels(labels);
        List<Sample> found = select(name, s -> s.labels().equals(wanted));
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + wanted + ", found " + found.size()
                    + ". Exported:\n" + describe(name));
        }
        return found.get(0).value();
    }

    /** Samples named {@code name} whose labels include these. */
    List<Sample> matching(String name, Predicate<Map<String, String>> labels) {
        return select(name, s -> labels.test(s.labels()));
    }

    String describe(String name) {
        StringBuilder out = new StringBuilder();
        for (Sample s : samples) {
            if (s.name().equals(name)) {
                out.append("  ")
                        .append(s.name())
                        .append(s.labels())
                        .append(' ')
                        .append(s.value())
                        .append('\n');
            }
        }
        return out.length() == 0 ? "  (no " + name + " series at all)" : out.toString();
    }

    private List<Sample> select(String name, Predicate<Sample> filter) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(filter)
                .toList();
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
                int j = eq + 2; // past ="
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
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            rest = i + 1;
        } else {
            name = line.substring(0, space);
            rest = space;
        }
        String[] parts = line.substring(rest).trim().split("\\s+");
        return new Sample(name, labels, Double.parseDouble(parts[0]));
    }
}
