package io.blockscope.exporter.page;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the page shows, derived from the history: the verdict, rates over the last
 * {@link #RATE_WINDOW_MS}, the leak table and the series behind the charts. Plain values, so the
 * renderer has no arithmetic and tests can check the figures.
 */
final class ReadPathView {

    /** Rates are taken over about this long: short enough to see a change within seconds. */
    static final long RATE_WINDOW_MS = 10_000;
    /** Leaks newer than this make the verdict "leaking"; older ones "leaked earlier". */
    static final long LEAK_WINDOW_MS = 60_000;

    enum Verdict {
        /** Nothing sampled yet, or no block cache reads seen at all. */
        NO_READS,
        /** Reads seen, but no two samples to take rates from yet. */
        MEASURING,
        ZERO_COPY,
        COPYING,
        LEAKING,
        COPYING_AND_LEAKING
    }

    static final class Site {
        final String name;
        final double bytesPerSecond;
        /** What to use instead, for a site in HBase's own classes that was measured; null otherwise. */
        final CopyAdvice.Entry advice;
        /** The confirmed HBase finding that names this site (docs/hbase-findings*.md); null otherwise. */
        final Findings.Link finding;
        /** The table and user whose work copied most here over the window (sampled); null when unknown. */
        final String table;

        final String user;
        /** Where the site's last sampled copy was made ("table T, region R"); null when the agent names none. */
        final String lastCopy;

        Site(String name, double bytesPerSecond, List<String> owner, String lastCopy) {
            this.name = name;
            this.lastCopy = lastCopy;
            this.bytesPerSecond = bytesPerSecond;
            this.advice = CopyAdvice.forSite(name);
            this.finding = Findings.forSite(name);
            this.table = owner == null ? null : owner.get(0);
            this.user = owner == null ? null : owner.get(1);
        }
    }

    static final class Leak {
        final String site;
        /** {@code checkout} (a block a cache lookup handed out) or {@code buffer} (a pool's buffer). */
        final String kind;

        final String reason;
        final double count;
        final long firstSeenMillis;
        final long lastSeenMillis;
        /** The HBase leak finding whose buffers were taken at this site (docs/hbase-findings-leaks.md); null otherwise. */
        final Findings.Link finding;
        /** Where the last leak was taken ("table T, region R"); "" when the agent names none. */
        final String where;

        Leak(
                String site,
                String kind,
                String reason,
                double count,
                long firstSeenMillis,
                long lastSeenMillis,
                String where) {
            this.site = site;
            this.where = where == null ? "" : where;
            this.finding = Findings.forLeakSite(site);
            this.kind = kind;
            this.reason = reason;
            this.count = count;
            this.firstSeenMillis = firstSeenMillis;
            this.lastSeenMillis = lastSeenMillis;
        }
    }

    /** A table whose work took leaked blocks or buffers, or holds stuck pool buffers now. */
    static final class LeakTable {
        final String table;
        /** Sampled leaks since start (all kinds and reasons). */
        final double leaked;
        /** Pool buffers stuck now. */
        final double stuck;

        LeakTable(String table, double leaked, double stuck) {
            this.table = table;
            this.leaked = leaked;
            this.stuck = stuck;
        }
    }

    /** A table (with the cell component copied) or a user, and its copy rate. */
    static final class Owner {
        final String name;
        /** The cell component for a table row; null for a user or a table's total. */
        final String component;

        final double bytesPerSecond;

        Owner(String name, String component, double bytesPerSecond) {
            this.name = name;
            this.component = component;
            this.bytesPerSecond = bytesPerSecond;
        }
    }

    /** One point of a chart: time and value. */
    static final class Point {
        final long timeMillis;
        final double value;

        Point(long timeMillis, double value) {
            this.timeMillis = timeMillis;
            this.value = value;
        }
    }

    final long nowMillis;
    final Verdict verdict;
    /** False until two samples far enough apart exist: rates are unknown (shown as "measuring"). */
    final boolean hasRates;

    final double rateWindowSeconds;
    final double copyBytesPerSecond;
    final double getsPerSecond;
    final List<Site> copySites;
    final List<Leak> leaks;
    final double recentLeaks;
    final Map<String, Double> outstanding;
    final List<Point> outstandingSeries;
    /** Mean hold time of sampled checkouts over the rate window, NaN when none returned. */
    final double holdMeanSeconds;

    final List<Sample.SizeClass> sizeClasses;
    /** Seconds paused per sample interval, over the whole history. */
    final List<Point> gcPauseSeries;

    final double gcPauseSecondsInHistory;
    final double gcPausesInHistory;
    final long historyMillis;
    final String readPathMode;
    /** True when the agent exports copies by table or user (HBase's profile); the page says nothing otherwise. */
    final boolean hasOwners;
    /** Copy rate per table and component over the rate window, highest first; only those with copies. */
    final List<Owner> tables;
    /** Copy rate per table (all components), highest first. */
    final List<Owner> tableTotals;
    /** Copy rate per RPC user over the rate window, highest first. */
    final List<Owner> users;
    /** Tables with leaks or stuck buffers, most stuck then most leaked first (HBase's profile only). */
    final List<LeakTable> leakTables;
    /** What the copies cost the heap. */
    final Price price;

    private ReadPathView(History history, long nowMillis) {
        this.nowMillis = nowMillis;
        List<Sample> samples = history.samples();
        Sample latest = samples.isEmpty() ? null : samples.get(samples.size() - 1);
        Sample base = rateBase(samples, latest);
        this.hasRates = base != null;
        this.rateWindowSeconds = base == null ? 0 : (latest.timeMillis - base.timeMillis) / 1000.0;
        this.copyBytesPerSecond = base == null ? 0 : rate(base.copyBytes(), latest.copyBytes());
        this.getsPerSecond = base == null ? 0 : rate(base.gets, latest.gets);
        this.copySites = base == null ? Collections.<Site>emptyList() : copySites(base, latest);
        this.leaks = leaks(latest, history.leakSeen());
        this.recentLeaks = recentLeaks(samples, latest);
        this.outstanding = latest == null ? Collections.<String, Double>emptyMap() : latest.outstanding;
        List<Point> refs = new ArrayList<>();
        List<Point> gc = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            refs.add(new Point(s.timeMillis, s.outstandingTotal()));
            if (i > 0) {
                gc.add(new Point(s.timeMillis, Math.max(0, s.gcPauseSeconds - samples.get(i - 1).gcPauseSeconds)));
            }
        }
        this.outstandingSeries = refs;
        this.gcPauseSeries = gc;
        Sample first = samples.isEmpty() ? null : samples.get(0);
        this.gcPauseSecondsInHistory = first == null ? 0 : latest.gcPauseSeconds - first.gcPauseSeconds;
        this.gcPausesInHistory = first == null ? 0 : latest.gcPauses - first.gcPauses;
        this.historyMillis = first == null ? 0 : latest.timeMillis - first.timeMillis;
        double holds = base == null ? 0 : latest.holdCount - base.holdCount;
        this.holdMeanSeconds = holds > 0 ? (latest.holdSeconds - base.holdSeconds) / holds : Double.NaN;
        this.sizeClasses = latest == null
                ? Collections.<Sample.SizeClass>emptyList()
                : new ArrayList<>(latest.sizeClasses.values());
        this.readPathMode = latest == null ? null : latest.readPathMode;
        this.verdict = verdict(latest);
        this.hasOwners = latest != null && (!latest.copyTableBytes.isEmpty() || !latest.copyUserBytes.isEmpty());
        this.tables = base == null ? Collections.<Owner>emptyList() : tables(base, latest);
        this.tableTotals = totals(tables);
        this.users = base == null ? Collections.<Owner>emptyList() : users(base, latest);
        this.price = Price.of(samples, base, latest, copyBytesPerSecond);
        this.leakTables = leakTables(latest);
    }

    private List<Owner> tables(Sample base, Sample latest) {
        List<Owner> rows = new ArrayList<>();
        for (Map.Entry<Sample.Owner, Double> e : latest.copyTableBytes.entrySet()) {
            double perSecond = rate(base.copyTableBytes.getOrDefault(e.getKey(), 0.0), e.getValue());
            if (perSecond > 0) {
                rows.add(new Owner(e.getKey().table, e.getKey().component, perSecond));
            }
        }
        return sorted(rows);
    }

    private static List<Owner> totals(List<Owner> tables) {
        Map<String, Double> sums = new TreeMap<>();
        for (Owner t : tables) {
            sums.merge(t.name, t.bytesPerSecond, Double::sum);
        }
        List<Owner> rows = new ArrayList<>();
        for (Map.Entry<String, Double> e : sums.entrySet()) {
            rows.add(new Owner(e.getKey(), null, e.getValue()));
        }
        return sorted(rows);
    }

    private List<Owner> users(Sample base, Sample latest) {
        List<Owner> rows = new ArrayList<>();
        for (Map.Entry<String, Double> e : latest.copyUserBytes.entrySet()) {
            double perSecond = rate(base.copyUserBytes.getOrDefault(e.getKey(), 0.0), e.getValue());
            if (perSecond > 0) {
                rows.add(new Owner(e.getKey(), null, perSecond));
            }
        }
        return sorted(rows);
    }

    private static List<Owner> sorted(List<Owner> rows) {
        rows.sort((a, b) -> Double.compare(b.bytesPerSecond, a.bytesPerSecond));
        return Collections.unmodifiableList(rows);
    }

    static ReadPathView of(History history, long nowMillis) {
        return new ReadPathView(history, nowMillis);
    }

    private double rate(double before, double after) {
        return rateWindowSeconds <= 0 ? 0 : Math.max(0, after - before) / rateWindowSeconds;
    }

    /** The newest sample at least RATE_WINDOW_MS older than the latest, else the oldest one. */
    private static Sample rateBase(List<Sample> samples, Sample latest) {
        Sample base = null;
        for (Sample s : samples) {
            if (s == latest) {
                break;
            }
            if (base == null || latest.timeMillis - s.timeMillis >= RATE_WINDOW_MS) {
                base = s;
            }
        }
        // Under a second apart, a rate is mostly noise.
        return base != null && latest.timeMillis - base.timeMillis >= 1000 ? base : null;
    }

    private List<Site> copySites(Sample base, Sample latest) {
        List<Site> sites = new ArrayList<>();
        for (Map.Entry<String, Double> e : latest.copySiteBytes.entrySet()) {
            double perSecond = rate(base.copySiteBytes.getOrDefault(e.getKey(), 0.0), e.getValue());
            if (perSecond > 0) {
                sites.add(new Site(
                        e.getKey(),
                        perSecond,
                        topOwner(base, latest, e.getKey()),
                        latest.copySiteWhere.get(e.getKey())));
            }
        }
        sites.sort((a, b) -> Double.compare(b.bytesPerSecond, a.bytesPerSecond));
        return sites;
    }

    /** The (table, user) whose sampled copies at {@code site} grew most over the window; null for none. */
    private List<String> topOwner(Sample base, Sample latest, String site) {
        Map<List<String>, Double> before = base.copySiteOwnerBytes.getOrDefault(site, Map.of());
        List<String> top = null;
        double most = 0;
        for (Map.Entry<List<String>, Double> e :
                latest.copySiteOwnerBytes.getOrDefault(site, Map.of()).entrySet()) {
            double grew = rate(before.getOrDefault(e.getKey(), 0.0), e.getValue());
            if (grew > most && !e.getKey().get(0).equals("other")) {
                top = e.getKey();
                most = grew;
            }
        }
        return top;
    }

    private static List<Leak> leaks(Sample latest, Map<Sample.LeakKey, History.Seen> seen) {
        List<Leak> leaks = new ArrayList<>();
        if (latest == null) {
            return leaks;
        }
        for (Map.Entry<Sample.LeakKey, Double> e : latest.leaks.entrySet()) {
            if (e.getValue() <= 0) {
                continue;
            }
            History.Seen s = seen.get(e.getKey());
            long first = s == null ? latest.timeMillis : s.first;
            long last = s == null ? latest.timeMillis : s.last;
            leaks.add(new Leak(
                    e.getKey().site,
                    e.getKey().kind,
                    e.getKey().reason,
                    e.getValue(),
                    first,
                    last,
                    latest.leakWhere.get(e.getKey())));
        }
        leaks.sort((a, b) -> Long.compare(b.lastSeenMillis, a.lastSeenMillis));
        return leaks;
    }

    private static List<LeakTable> leakTables(Sample latest) {
        List<LeakTable> tables = new ArrayList<>();
        if (latest == null) {
            return tables;
        }
        java.util.Set<String> names = new java.util.TreeSet<>(latest.leakTables.keySet());
        names.addAll(latest.stuckTables.keySet());
        for (String table : names) {
            double leaked = latest.leakTables.getOrDefault(table, 0.0);
            double stuck = latest.stuckTables.getOrDefault(table, 0.0);
            if (leaked > 0 || stuck > 0) {
                tables.add(new LeakTable(table, leaked, stuck));
            }
        }
        tables.sort(
                (a, b) -> a.stuck != b.stuck ? Double.compare(b.stuck, a.stuck) : Double.compare(b.leaked, a.leaked));
        return tables;
    }

    /** Leaks counted in the last LEAK_WINDOW_MS of history. */
    private static double recentLeaks(List<Sample> samples, Sample latest) {
        if (latest == null) {
            return 0;
        }
        for (Sample s : samples) {
            if (latest.timeMillis - s.timeMillis <= LEAK_WINDOW_MS) {
                // The first sample in the window; a leak already counted in the very first sample
                // of the history happened at an unknown time and does not count as recent.
                return Math.max(0, latest.leakCount() - s.leakCount());
            }
        }
        return 0;
    }

    private Verdict verdict(Sample latest) {
        if (latest == null || latest.gets == 0) {
            return Verdict.NO_READS;
        }
        if (!hasRates) {
            return Verdict.MEASURING;
        }
        boolean copying = copyBytesPerSecond > 0;
        boolean leaking = recentLeaks > 0;
        if (copying && leaking) {
            return Verdict.COPYING_AND_LEAKING;
        }
        if (leaking) {
            return Verdict.LEAKING;
        }
        return copying ? Verdict.COPYING : Verdict.ZERO_COPY;
    }

    double leakTotal() {
        double sum = 0;
        for (Leak l : leaks) {
            sum += l.count;
        }
        return sum;
    }

    double outstandingTotal() {
        double sum = 0;
        for (double v : outstanding.values()) {
            sum += v;
        }
        return sum;
    }
}
