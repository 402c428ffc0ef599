package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.function.Executable;

/**
 * Runs one {@link HBaseFeature} on a RegionServer with the agent at {@code copy.sample=1} and checks
 * what the agent counted against what HBase's code copies: the copy counters by component within
 * {@link #TOLERANCE} (a block still in the BucketCache's RAM queue is on the heap), every avoidable
 * copy named at the feature's site, the copies by design at least HBase's. The standalone master's
 * own work in the same JVM is not the feature's and is taken out.
 */
final class FeatureCheck {

    static final double TOLERANCE = 0.05;
    static final List<String> COMPONENTS = List.of("row", "family", "qualifier", "value", "tags");
    /**
     * The standalone master's own work in the same JVM (its chores read hbase:meta through HBase's
     * client, its procedures write their store): not the feature under test.
     */
    static final List<String> BACKGROUND =
            List.of("org.apache.hadoop.hbase.master.", "org.apache.hadoop.hbase.procedure2.");

    private final URI metrics;

    FeatureCheck(URI metrics) {
        this.metrics = metrics;
    }

    /** Runs {@code f}, asserts its copies, and returns its row for the report (with the sites named). */
    FeatureReport.Row measure(HBaseFeature f, String release) throws IOException {
        Scrape before = Scrape.of(metrics);
        int seen = f.action.run();
        Scrape after = Scrape.of(metrics);
        Map<String, Long> counted = new LinkedHashMap<>();
        for (String c : COMPONENTS) {
            counted.put(c, delta(before, after, "blockscope_copy_to_heap_bytes_total", "component", c));
        }
        Map<String, Long> sites = siteDeltas(before, after);
        long background = sites.entrySet().stream()
                .filter(e -> BACKGROUND.stream().anyMatch(e.getKey()::startsWith))
                .mapToLong(Map.Entry::getValue)
                .sum();
        sites.keySet().removeIf(s -> BACKGROUND.stream().anyMatch(s::startsWith));
        long total = counted.values().stream().mapToLong(Long::longValue).sum() - background;
        Map<String, Long> byDesign = new LinkedHashMap<>();
        for (String operation : f.byDesignPerCell.keySet()) {
            byDesign.put(
                    operation, delta(before, after, "blockscope_copy_by_design_bytes_total", "operation", operation));
        }
        System.out.printf(
                "%s on %s: %d seen, counted %s, sites %s, by design %s%n",
                f.name, release, seen, counted, sites, byDesign);
        String on = f.name + " on " + release;
        assertTrue(seen > 0, on + ": the read saw nothing");
        List<Executable> checks = new ArrayList<>();
        for (String c : COMPONENTS) {
            long expected = f.expectedBytes(c);
            long got = counted.get(c);
            checks.add(() -> assertTrue(
                    got <= expected + background && got >= expected * (1 - TOLERANCE),
                    on + ": " + c + " bytes counted " + got + ", HBase's code copies " + expected + " (sites " + sites
                            + ")"));
        }
        if (f.copying()) {
            long atSite = sites.entrySet().stream()
                    .filter(e -> f.namedAt(e.getKey()))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            checks.add(() -> assertEquals(total, atSite, on + ": every copy named " + f.sitePrefixes + ": " + sites));
        }
        byDesign.forEach((operation, got) -> checks.add(() -> assertTrue(
                got >= f.expectedByDesignBytes(operation),
                on + ": by-design " + operation + " bytes counted " + got + ", HBase's code copies at least "
                        + f.expectedByDesignBytes(operation))));
        assertAll(checks.stream());
        return new FeatureReport.Row(f, f.copying() ? namedSites(sites, f) : "", release);
    }

    private static String namedSites(Map<String, Long> sites, HBaseFeature f) {
        return sites.keySet().stream().filter(f::namedAt).sorted().collect(Collectors.joining(", "));
    }

    static long delta(Scrape before, Scrape after, String metric, String label, String value) {
        return (long) (after.sum(metric, l -> value.equals(l.get(label)))
                - before.sum(metric, l -> value.equals(l.get(label))));
    }

    static Map<String, Long> siteDeltas(Scrape before, Scrape after) {
        Map<String, Long> deltas = new TreeMap<>();
        for (Scrape.Sample s : after.matching("blockscope_copy_site_bytes_total", l -> true)) {
            String site = s.labels().get("site");
            long d = (long)
                    (s.value() - before.sum("blockscope_copy_site_bytes_total", l -> site.equals(l.get("site"))));
            if (d != 0) {
                deltas.put(site, d);
            }
        }
        return deltas;
    }
}
