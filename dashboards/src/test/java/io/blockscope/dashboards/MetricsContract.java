package io.blockscope.dashboards;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names contract, read from the tables of {@code docs/metrics.md}: name and type of every
 * series blockscope exports. A dashboard or rule may read a documented name (histograms also through
 * their classic {@code _bucket}/{@code _count}/{@code _sum} series), a standard {@code jvm_*} series, a
 * series Prometheus makes itself, or a recording rule.
 */
final class MetricsContract {

    /** Series Prometheus itself makes for every target, and its alert state. */
    static final Set<String> PROMETHEUS_SERIES = Set.of(
            "up",
            "scrape_duration_seconds",
            "scrape_samples_scraped",
            "scrape_series_added",
            "ALERTS",
            "ALERTS_FOR_STATE");

    private static final Pattern ROW =
            Pattern.compile("^\\|\\s*`([a-z_:][a-z0-9_:]*)`\\s*\\|\\s*([^|]+?)\\s*\\|", Pattern.MULTILINE);

    private final Map<String, String> types;

    private MetricsContract(Map<String, String> types) {
        this.types = types;
    }

    static MetricsContract read(Path metricsMd) {
        String text;
        try {
            text = Files.readString(metricsMd);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the metric names contract " + metricsMd, e);
        }
        Map<String, String> types = new LinkedHashMap<>();
        Matcher m = ROW.matcher(text);
        while (m.find()) {
            types.put(m.group(1), m.group(2).trim());
        }
        if (types.isEmpty()) {
            throw new IllegalStateException(metricsMd + " has no metric table rows of the form | `name` | type | ...");
        }
        return new MetricsContract(types);
    }

    static MetricsContract fromDocs() {
        return read(ModulePaths.docs().resolve("metrics.md"));
    }

    Map<String, String> types() {
        return types;
    }

    /** True when {@code name} is a documented series (or a classic series of a documented histogram). */
    boolean documents(String name) {
        if (types.containsKey(name)) {
            return true;
        }
        for (String suffix : new String[] {"_bucket", "_count", "_sum"}) {
            if (name.endsWith(suffix)) {
                String base = name.substring(0, name.length() - suffix.length());
                String type = types.get(base);
                if (type != null && type.startsWith("histogram")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when {@code name} may appear in a dashboard or rule, given the recording rules' names. */
    boolean allows(String name, Set<String> recordingRules) {
        return documents(name)
                || name.startsWith("jvm_")
                || PROMETHEUS_SERIES.contains(name)
                || recordingRules.contains(name);
    }
}
