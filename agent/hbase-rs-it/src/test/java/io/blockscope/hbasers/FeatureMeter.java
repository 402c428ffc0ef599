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
 * Runs one {@link HBaseFeature} on a RegionServer with the agent at {@code copy.sample=1} and
 * asserts what the agent counted against what HBase's code copies: per component within
 * {@link RegionServerFeaturesTest#TOLERANCE} below (a block still in the BucketCache's RAM queue is
 * on the heap) and never above, every copy at the feature's site, and every cell the feature
 * expects seen. The standalone master's own work in the same JVM is left out.
 */
final class FeatureMeter {

    /**
     * The standalone master's own work in the same JVM (its chores read hbase:meta through HBase's
     * client, its procedures write their store): not the feature under test.
     */
    private static final List<String> BACKGROUND =
            List.of("org.apache.hadoop.hbase.master.", "org.apache.hadoop.hbase.procedure2.");

    private final URI metrics;

    FeatureMeter(URI metrics) {
        this.metrics = metrics;
    }

    /** Runs {@code f} and returns its row of the features table, once every check passed. */
    FeatureReport.Row measure(HBaseFeature f) throws IOException {
        Scrape before = Scrape.of(metrics);
        int seen = f.action.run();
        Scrape after = Scrape.of(metrics);
        Map<String, Long> counted = new LinkedHashMap<>();
        for (String c : RegionServerFeaturesTest.COMPONENTS) {
            counted.put(c, delta(before, after, c));
        }
        Map<String, Long> sites = siteDeltas(before, after);
        long background = sites.entrySet().stream()
                .filter(e -> BACKGROUND.stream().anyMatch(e.getKey()::startsWith))
                .mapToLong(Map.Entry::getValue)
                .sum();
        sites.keySet().removeIf(s -> BACKGROUND.stream().anyMatch(s::startsWith));
        long total = counted.values().stream().mapToLong(Long::longValue).sum() - background;
        System.out.printf("%s: %d seen, counted %s, sites %s%n", f.name, seen, counted, sites);
        assertEquals(f.cells, seen, f.name + ": the cells the read returns");
        List<Executable> checks = new ArrayList<>();
        for (String c : RegionServerFeaturesTest.COMPONENTS) {
            long expected = f.expectedBytes(c);
            long got = counted.get(c);
            checks.add(() -> assertTrue(
                    got <= expected + background && got >= expected * (1 - RegionServerFeaturesTest.TOLERANCE),
                    f.name + ": " + c + " bytes counted " + got + ", HBase's code copies " + expected + " (sites "
                            + sites + ")"));
        }
        if (f.copying()) {
            long atSite = sites.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(f.sitePrefix))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            checks.add(() -> assertEquals(total, atSite, f.name + ": every copy named " + f.sitePrefix + ": " + sites));
        }
        assertAll(checks.stream());
        return new FeatureReport.Row(f, f.copying() ? sitesOf(sites, f.sitePrefix) : "");
    }

    private static String sitesOf(Map<String, Long> sites, String prefix) {
        return sites.keySet().stream()
                .filter(s -> s.startsWith(prefix))
                .sorted()
                .collect(Collectors.joining(", "));
    }

    private static long delta(Scrape before, Scrape after, String component) {
        String metric = "blockscope_copy_to_heap_bytes_total";
        return (long) (after.sum(metric, l -> component.equals(l.get("component")))
                - before.sum(metric, l -> component.equals(l.get("component"))));
    }

    private static Map<String, Long> siteDeltas(Scrape before, Scrape after) {
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
