package io.blockscope.agent.record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters by call site with a bounded number of sites: at most {@code capacity} sites get their
 * own label value, the rest add to {@code other}. Each site carries a few columns (calls and
 * bytes, or leaks by reason).
 *
 * <p>Sites compete for the labels like a space-saving top-K: a site that arrives when the table is
 * full becomes a candidate (its counts still go to {@code other}); once a candidate has been seen
 * more often than the least-seen exported site, the two swap. The retired site's counts move into
 * {@code other}, so every exported series, {@code other} included, only ever grows (Prometheus
 * counters), and the sum over all series is always the total.
 *
 * <p>Only sampled events reach this table, so it simply synchronizes.
 */
public final class SiteTable {

    /** The label value that collects every site without a label of its own. */
    public static final String OTHER = "other";

    private static final int MAX_SITE_LENGTH = 200;

    private final int capacity;
    private final int columns;
    private final int maxCandidates;
    private final Map<String, Entry> exported = new LinkedHashMap<>();
    private final Map<String, long[]> candidates = new HashMap<>();
    private final long[] other;
    /** Sites that lost their label to a hotter candidate (their counts moved into other). */
    private long retired;

    public SiteTable(int capacity, int columns) {
        if (capacity < 1 || columns < 1) {
            throw new IllegalArgumentException("capacity and columns must be positive");
        }
        this.capacity = capacity;
        this.columns = columns;
        this.maxCandidates = capacity * 4;
        this.other = new long[columns];
    }

    /** One exported site's counts: {@code values[column]}, and the note of its last observation. */
    public static final class Row {
        private final String site;
        private final long[] values;
        private final Object note;

        public Row(String site, long[] values) {
            this(site, values, null);
        }

        Row(String site, long[] values, Object note) {
            this.site = site;
            this.values = values;
            this.note = note;
        }

        public String site() {
            return site;
        }

        public long[] values() {
            return values;
        }

        /** What {@link #addNoted} last remembered of this site; null for {@code other} and unnoted sites. */
        public Object note() {
            return note;
        }

        @Override
        public String toString() {
            return "Row[site=" + site + ", values=" + java.util.Arrays.toString(values) + "]";
        }
    }

    private static final class Entry {
        final long[] values;
        long seen;
        Object note;

        Entry(int columns) {
            values = new long[columns];
        }
    }

    /** Adds one observation of {@code site}: {@code amounts[column]} to each column. */
    public synchronized void add(String rawSite, long... amounts) {
        addNoted(rawSite, null, amounts);
    }

    /**
     * {@link #add}, and keeps {@code note} (say, where the observation happened) as the site's last,
     * while the site has a row of its own: one note per row, so the table stays as bounded as its labels.
     */
    public synchronized void addNoted(String rawSite, Object note, long... amounts) {
        if (amounts.length != columns) {
            throw new IllegalArgumentException(columns + " amounts expected, got " + amounts.length);
        }
        String site = rawSite.length() > MAX_SITE_LENGTH ? rawSite.substring(0, MAX_SITE_LENGTH) : rawSite;
        Entry entry = exported.get(site);
        if (entry == null && exported.size() < capacity && !site.equals(OTHER)) {
            entry = new Entry(columns);
            exported.put(site, entry);
        }
        if (entry != null) {
            addTo(entry.values, amounts);
            entry.seen++;
            if (note != null) {
                entry.note = note;
            }
            return;
        }
        addTo(other, amounts);
        if (site.equals(OTHER)) {
            return;
        }
        long[] seen = candidates.get(site);
        if (seen == null) {
            if (candidates.size() >= maxCandidates) {
                dropLeastSeenCandidate();
            }
            seen = new long[1];
            candidates.put(site, seen);
        }
        seen[0]++;
        promoteIfHotter(site, seen[0]);
    }

    private void promoteIfHotter(String site, long seen) {
        String coldest = null;
        long coldestSeen = Long.MAX_VALUE;
        for (Map.Entry<String, Entry> e : exported.entrySet()) {
            if (e.getValue().seen < coldestSeen) {
                coldest = e.getKey();
                coldestSeen = e.getValue().seen;
            }
        }
        if (coldest != null && seen > coldestSeen) {
            addTo(other, exported.remove(coldest).values);
            retired++;
            candidates.remove(site);
            Entry promoted = new Entry(columns);
            promoted.seen = seen;
            exported.put(site, promoted);
        }
    }

    private static void addTo(long[] sums, long[] amounts) {
        for (int c = 0; c < sums.length; c++) {
            sums[c] += amounts[c];
        }
    }

    private void dropLeastSeenCandidate() {
        String least = null;
        long leastSeen = Long.MAX_VALUE;
        for (Map.Entry<String, long[]> e : candidates.entrySet()) {
            if (e.getValue()[0] < leastSeen) {
                least = e.getKey();
                leastSeen = e.getValue()[0];
            }
        }
        candidates.remove(least);
    }

    /** How many sites lost their own label to a hotter one so far. */
    public synchronized long retired() {
        return retired;
    }

    /** The exported sites, then {@code other} (present once anything went there). */
    public synchronized List<Row> snapshot() {
        List<Row> rows = new ArrayList<>(exported.size() + 1);
        exported.forEach((site, entry) -> rows.add(new Row(site, entry.values.clone(), entry.note)));
        for (long v : other) {
            if (v != 0) {
                rows.add(new Row(OTHER, other.clone()));
                break;
            }
        }
        return rows;
    }
}
