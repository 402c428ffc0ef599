package io.blockscope.exporter.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The samples of a Prometheus text-format (0.0.4) scrape, for assertions. */
public final class Samples {

    /** One sample line: metric name, labels, value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;

    private Samples(List<Sample> samples) {
        this.samples = samples;
    }

    public static Samples parse(String text) {
        List<Sample> result = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            result.add(parseLine(line));
        }
        return new Samples(result);
    }

    public List<Sample> all() {
        return Collections.unmodifiableList(samples);
    }

    /** All samples named {@code name} whose labels pass {@code filter}. */
    public List<Sample> of(String name, Predicate<Map<String, String>> filter) {
        List<Sample> result = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name.equals(name) && filter.test(s.labels)) {
                result.add(s);
            }
        }
        return result;
    }

    public List<Sample> of(String name) {
        return of(name, labels -> true);
    }

    /** The sum of the values of {@link #of(String, Predicate)}: 0 when there are none. */
    public double sum(String name, Predicate<Map<String, String>> filter) {
        double sum = 0;
        for (Sample s : of(name, filter)) {
            sum += s.value;
        }
        return sum;
    }

    public double sum(String name) {
        return sum(name, labels -> true);
    }

    public boolean has(String name) {
        return !of(name).isEmpty();
    }

    /** Filter on one label's value. */
    public static Predicate<Map<String, String>> label(String key, String value) {
        return labels -> value.equals(labels.get(key));
    }

    private static Sample parseLine(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        if (brace < 0 || brace > space) {
            return new Sample(line.substring(0, space), Map.of(), value(line.substring(space + 1)));
        }
        String name = line.substring(0, brace);
        Map<String, String> labels = new LinkedHashMap<>();
        int i = brace + 1;
        while (line.charAt(i) != '}') {
            int eq = line.indexOf('=', i);
            String key = line.substring(i, eq);
            StringBuilder v = new StringBuilder();
            int j = eq + 2; // skip ="
            for (; line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\') {
                    char next = line.charAt(++j);
                    v.append(next == 'n' ? '\n' : next);
                } else {
                    v.append(c);
                }
            }
            labels.put(key, v.toString());
            i = j + 1;
            if (line.charAt(i) == ',') {
                i++;
            }
        }
        return new Sample(name, labels, value(line.substring(i + 2)));
    }

    private static double value(String text) {
        String v = text.trim();
        int space = v.indexOf(' ');
        if (space > 0) {
            v = v.substring(0, space); // a timestamp follows
        }
        switch (v) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                return Double.parseDouble(v);
        }
    }
}
