package io.blockscope.hbasers;

import io.blockscope.testsupport.Scrape;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one read copied, from the agent's counters scraped before and after it: bytes by component and
 * by site, with the standalone master's own work (which shares the process) taken out, and the
 * read's answer to compare with another way to the same cells.
 */
record CopiesMeasured(Map<String, Long> components, long total, Map<String, Long> sites, List<String> cells) {

    /** One read: the cells (or answers) it returned, each as a comparable string. */
    interface Read {
        List<String> run() throws IOException;
    }

    static CopiesMeasured of(URI metrics, Read read) throws IOException {
        Scrape before = Scrape.of(metrics);
        List<String> cells = read.run();
        Scrape after = Scrape.of(metrics);
        Map<String, Long> components = new LinkedHashMap<>();
        for (String c : FeatureCheck.COMPONENTS) {
            components.put(c, FeatureCheck.delta(before, after, "blockscope_copy_to_heap_bytes_total", "component", c));
        }
        Map<String, Long> sites = FeatureCheck.siteDeltas(before, after);
        long background = sites.entrySet().stream()
                .filter(e -> FeatureCheck.BACKGROUND.stream().anyMatch(e.getKey()::startsWith))
                .mapToLong(Map.Entry::getValue)
                .sum();
        sites.keySet().removeIf(s -> FeatureCheck.BACKGROUND.stream().anyMatch(s::startsWith));
        long total = components.values().stream().mapToLong(Long::longValue).sum() - background;
        return new CopiesMeasured(components, total, sites, cells);
    }

    /** Bytes counted at the sites that start with any of {@code prefixes}. */
    long at(String... prefixes) {
        return sites.entrySet().stream()
                .filter(e -> Arrays.stream(prefixes).anyMatch(e.getKey()::startsWith))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }
}
