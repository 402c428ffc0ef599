package io.blockscope.exporter.page;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What to use instead of a copying call site in HBase's own classes, from {@value #RESOURCE}: the
 * table a run of HBase's stock features on a real RegionServer generates (one line per site, without
 * its line number: site, feature, alternative), so the page advises only what was measured. Sites
 * of the application's own classes get no entry here: the runbook shows the zero-copy calls.
 */
final class CopyAdvice {

    static final String RESOURCE = "hbase-copy-advice.tsv";

    /** One site's entry: the HBase feature measured there and what to use instead. */
    static final class Entry {
        final String feature;
        final String instead;

        Entry(String feature, String instead) {
            this.feature = feature;
            this.instead = instead;
        }
    }

    private static final Map<String, Entry> BY_SITE = load();

    private CopyAdvice() {}

    /** The entry for {@code site} ({@code Class(Comparator).method:line}), or null. */
    static Entry forSite(String site) {
        return BY_SITE.get(withoutLine(site));
    }

    static Map<String, Entry> all() {
        return BY_SITE;
    }

    static String withoutLine(String site) {
        int colon = site.lastIndexOf(':');
        return colon < 0 ? site : site.substring(0, colon);
    }

    private static Map<String, Entry> load() {
        Map<String, Entry> entries = new LinkedHashMap<>();
        try (InputStream in = CopyAdvice.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not packaged with the exporter");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                if (fields.length != 3) {
                    throw new IllegalStateException(RESOURCE + ": not site, feature, alternative: " + line);
                }
                entries.put(fields[0], new Entry(fields[1], fields[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(entries);
    }
}
