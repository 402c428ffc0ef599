package io.blockscope.exporter.page;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DistributionDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The read-path series of one moment, taken from the registry: what the page needs and nothing
 * else. Counters are cumulative; rates come from two samples ({@link ReadPathView}).
 */
final class Sample {

    /** One bucket cache size class: slots used and free. */
    static final class SizeClass {
        final long slotBytes;
        final double usedSlots;
        final double freeSlots;

        SizeClass(long slotBytes, double usedSlots, double freeSlots) {
            this.slotBytes = slotBytes;
            this.usedSlots = usedSlots;
            this.freeSlots = freeSlots;
        }
    }

    final long timeMillis;
    /** Sampled copy bytes per call site (scaled by the sampling rate, as exported). */
    final Map<String, Double> copySiteBytes;
    /** Where each site's last sampled copy was made, from its exemplar ("table T, region R"; HBase's profile). */
    final Map<String, String> copySiteWhere;
    /** Copy bytes per component (row, family, qualifier, value, tags, block): exact counts. */
    final Map<String, Double> copyComponentBytes;
    /** Sampled copy bytes per call site, then per owner ({@code List.of(table, user)}; hbase2 only). */
    final Map<String, Map<List<String>, Double>> copySiteOwnerBytes;
    /** Leaked references per "site" and "reason". */
    final Map<LeakKey, Double> leaks;
    /**
     * Where a leak series' last leak was taken, from its exemplar ("table ns:t, region R"); only
     * series whose agent names one (HBase's profile).
     */
    final Map<LeakKey, String> leakWhere;

    final Map<String, Double> outstanding;
    final double gets;
    final double holdCount;
    final double holdSeconds;
    final double gcPauses;
    final double gcPauseSeconds;
    final Map<Long, SizeClass> sizeClasses;
    /** {@code copy}, {@code zero-copy}, or null when the agent does not know. */
    final String readPathMode;
    /** Exact copy bytes per table and component ({@code hbase2} profile only; empty elsewhere). */
    final Map<Owner, Double> copyTableBytes;
    /** Exact copy bytes per RPC user ({@code hbase2} profile only; empty elsewhere). */
    final Map<String, Double> copyUserBytes;
    /** Sampled leaks per table, all kinds and reasons ({@code hbase2} profile only; empty elsewhere). */
    final Map<String, Double> leakTables;
    /** Pool buffers stuck now per table ({@code hbase2} profile only; empty elsewhere). */
    final Map<String, Double> stuckTables;
    /** JFR's heap allocation estimate; NaN when the series is absent (GC source not JFR). */
    final double allocatedBytes;
    /** Completed collections per collector ({@code gc} label). */
    final Map<String, Double> gcCollections;
    /** {@code blockscope_gc_source_info}'s source ({@code jfr}, {@code mxbean}, ...), or null. */
    final String gcSource;

    private Sample(Builder b) {
        this.timeMillis = b.timeMillis;
        this.copySiteBytes = Collections.unmodifiableMap(b.copySiteBytes);
        this.copyComponentBytes = Collections.unmodifiableMap(b.copyComponentBytes);
        this.copySiteOwnerBytes = Collections.unmodifiableMap(b.copySiteOwnerBytes);
        this.leaks = Collections.unmodifiableMap(b.leaks);
        this.leakWhere = Collections.unmodifiableMap(b.leakWhere);
        this.copySiteWhere = Collections.unmodifiableMap(b.copySiteWhere);
        this.outstanding = Collections.unmodifiableMap(b.outstanding);
        this.gets = b.gets;
        this.holdCount = b.holdCount;
        this.holdSeconds = b.holdSeconds;
        this.gcPauses = b.gcPauses;
        this.gcPauseSeconds = b.gcPauseSeconds;
        Map<Long, SizeClass> classes = new TreeMap<>();
        for (Map.Entry<Long, double[]> e : b.slots.entrySet()) {
            classes.put(e.getKey(), new SizeClass(e.getKey(), e.getValue()[0], e.getValue()[1]));
        }
        this.sizeClasses = Collections.unmodifiableMap(classes);
        this.readPathMode = b.readPathMode;
        this.copyTableBytes = Collections.unmodifiableMap(b.copyTableBytes);
        this.copyUserBytes = Collections.unmodifiableMap(b.copyUserBytes);
        this.leakTables = Collections.unmodifiableMap(b.leakTables);
        this.stuckTables = Collections.unmodifiableMap(b.stuckTables);
        this.allocatedBytes = b.allocated ? b.allocatedBytes : Double.NaN;
        this.gcCollections = Collections.unmodifiableMap(b.gcCollections);
        this.gcSource = b.gcSource;
    }

    double copyBytes() {
        double sum = 0;
        for (double v : copyComponentBytes.values()) {
            sum += v;
        }
        return sum;
    }

    double leakCount() {
        double sum = 0;
        for (double v : leaks.values()) {
            sum += v;
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

    /** The series of {@code snapshots} that the page reads; everything else is ignored. */
    static Sample of(MetricSnapshots snapshots, long timeMillis) {
        Builder b = new Builder(timeMillis);
        for (MetricSnapshot metric : snapshots) {
            String name = baseName(metric.getMetadata().getPrometheusName());
            for (DataPointSnapshot point : metric.getDataPoints()) {
                b.add(name, point);
            }
        }
        return new Sample(b);
    }

    /** Counters are named without {@code _total} in client_java 1.x; accept either spelling. */
    private static String baseName(String name) {
        return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
    }

    /** Identity of a leak series: its site, kind ({@code checkout} or {@code buffer}) and reason. */
    static final class LeakKey implements Comparable<LeakKey> {
        final String site;
        final String kind;
        final String reason;

        /** @param kind null for agents that export no kind: their leaks are all checkouts */
        LeakKey(String site, String kind, String reason) {
            this.site = site == null ? "" : site;
            this.kind = kind == null ? "checkout" : kind;
            this.reason = reason == null ? "" : reason;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof LeakKey)) {
                return false;
            }
            LeakKey other = (LeakKey) o;
            return site.equals(other.site) && kind.equals(other.kind) && reason.equals(other.reason);
        }

        @Override
        public int hashCode() {
            return (site.hashCode() * 31 + kind.hashCode()) * 31 + reason.hashCode();
        }

        @Override
        public int compareTo(LeakKey o) {
            int bySite = site.compareTo(o.site);
            if (bySite != 0) {
                return bySite;
            }
            int byKind = kind.compareTo(o.kind);
            return byKind != 0 ? byKind : reason.compareTo(o.reason);
        }
    }

    /** Identity of a by-table series: the table ({@code namespace:table}) and the cell component. */
    static final class Owner implements Comparable<Owner> {
        final String table;
        final String component;

        Owner(String table, String component) {
            this.table = table;
            this.component = component;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Owner && table.equals(((Owner) o).table) && component.equals(((Owner) o).component);
        }

        @Override
        public int hashCode() {
            return table.hashCode() * 31 + component.hashCode();
        }

        @Override
        public int compareTo(Owner o) {
            int byTable = table.compareTo(o.table);
            return byTable != 0 ? byTable : component.compareTo(o.component);
        }
    }

    private static final class Builder {
        final long timeMillis;
        final Map<String, Double> copySiteBytes = new TreeMap<>();
        final Map<String, String> copySiteWhere = new TreeMap<>();
        final Map<String, Double> copyComponentBytes = new TreeMap<>();
        final Map<String, Map<List<String>, Double>> copySiteOwnerBytes = new TreeMap<>();
        final Map<LeakKey, Double> leaks = new TreeMap<>();
        final Map<LeakKey, String> leakWhere = new TreeMap<>();
        final Map<String, Double> outstanding = new TreeMap<>();
        final Map<Long, double[]> slots = new TreeMap<>();
        double gets;
        double holdCount;
        double holdSeconds;
        double gcPauses;
        double gcPauseSeconds;
        String readPathMode;
        final Map<Owner, Double> copyTableBytes = new TreeMap<>();
        final Map<String, Double> copyUserBytes = new TreeMap<>();
        final Map<String, Double> leakTables = new TreeMap<>();
        final Map<String, Double> stuckTables = new TreeMap<>();
        boolean allocated;
        double allocatedBytes;
        final Map<String, Double> gcCollections = new TreeMap<>();
        String gcSource;

        Builder(long timeMillis) {
            this.timeMillis = timeMillis;
        }

        void add(String name, DataPointSnapshot point) {
            Labels labels = point.getLabels();
            switch (name) {
                case "blockscope_copy_site_bytes":
                    copySiteBytes.merge(label(labels, "site"), value(point), Double::sum);
                    String copiedFor = where(point);
                    if (copiedFor != null) {
                        copySiteWhere.put(label(labels, "site"), copiedFor);
                    }
                    break;
                case "blockscope_copy_site_owner_bytes":
                    copySiteOwnerBytes
                            .computeIfAbsent(label(labels, "site"), k -> new HashMap<>())
                            .merge(List.of(label(labels, "table"), label(labels, "user")), value(point), Double::sum);
                    break;
                case "blockscope_copy_to_heap_bytes":
                    copyComponentBytes.merge(label(labels, "component"), value(point), Double::sum);
                    break;
                case "blockscope_block_leaks":
                    LeakKey leak = new LeakKey(label(labels, "site"), label(labels, "kind"), label(labels, "reason"));
                    leaks.merge(leak, value(point), Double::sum);
                    String where = where(point);
                    if (where != null) {
                        leakWhere.put(leak, where);
                    }
                    break;
                case "blockscope_block_refs_outstanding":
                    outstanding.merge(label(labels, "tier"), value(point), Double::sum);
                    break;
                case "blockscope_block_cache_gets":
                    gets += value(point);
                    break;
                case "blockscope_block_hold_seconds":
                    if (point instanceof DistributionDataPointSnapshot) {
                        holdCount += ((DistributionDataPointSnapshot) point).getCount();
                        holdSeconds += sum((DistributionDataPointSnapshot) point);
                    }
                    break;
                case "blockscope_gc_pause_seconds":
                    if (point instanceof DistributionDataPointSnapshot) {
                        gcPauses += ((DistributionDataPointSnapshot) point).getCount();
                        gcPauseSeconds += sum((DistributionDataPointSnapshot) point);
                    }
                    break;
                case "blockscope_bucket_slots":
                    addSlots(labels, value(point));
                    break;
                case "blockscope_copy_to_heap_bytes_by_table":
                    copyTableBytes.merge(
                            new Owner(label(labels, "table"), label(labels, "component")), value(point), Double::sum);
                    break;
                case "blockscope_copy_to_heap_bytes_by_user":
                    copyUserBytes.merge(label(labels, "user"), value(point), Double::sum);
                    break;
                case "blockscope_block_leaks_by_table":
                    leakTables.merge(label(labels, "table"), value(point), Double::sum);
                    break;
                case "blockscope_allocator_pool_buffers_stuck_by_table":
                    stuckTables.merge(label(labels, "table"), value(point), Double::sum);
                    break;
                case "blockscope_allocated_bytes":
                    allocated = true;
                    allocatedBytes += value(point);
                    break;
                case "blockscope_gc_collections":
                    gcCollections.merge(label(labels, "gc"), value(point), Double::sum);
                    break;
                case "blockscope_gc_source": // an Info: exposed as blockscope_gc_source_info
                case "blockscope_gc_source_info":
                    gcSource = label(labels, "source");
                    break;
                case "blockscope_read_path_mode":
                    if (value(point) == 1) {
                        readPathMode = label(labels, "mode");
                    }
                    break;
                default:
                    break;
            }
        }

        private void addSlots(Labels labels, double value) {
            long slotBytes;
            try {
                slotBytes = Long.parseLong(label(labels, "size_class"));
            } catch (NumberFormatException e) {
                return; // not a size class the page can order; the table leaves it out
            }
            double[] usedFree = slots.computeIfAbsent(slotBytes, k -> new double[2]);
            if ("used".equals(label(labels, "state"))) {
                usedFree[0] += value;
            } else if ("free".equals(label(labels, "state"))) {
                usedFree[1] += value;
            }
        }

        /** "table T, region R" from a counter point's exemplar; null without one that names a region. */
        private static String where(DataPointSnapshot point) {
            Exemplar exemplar =
                    point instanceof CounterDataPointSnapshot ? ((CounterDataPointSnapshot) point).getExemplar() : null;
            String region = exemplar == null ? null : exemplar.getLabels().get("region");
            if (region == null) {
                return null;
            }
            String table = exemplar.getLabels().get("table");
            return table == null ? "region " + region : "table " + table + ", region " + region;
        }

        private static String label(Labels labels, String name) {
            String value = labels.get(name);
            return value == null ? "" : value;
        }

        private static double sum(DistributionDataPointSnapshot point) {
            return point.hasSum() ? point.getSum() : 0;
        }

        private static double value(DataPointSnapshot point) {
            if (point instanceof CounterSnapshot.CounterDataPointSnapshot) {
                return ((CounterSnapshot.CounterDataPointSnapshot) point).getValue();
            }
            if (point instanceof GaugeSnapshot.GaugeDataPointSnapshot) {
                return ((GaugeSnapshot.GaugeDataPointSnapshot) point).getValue();
            }
            return 0;
        }
    }
}
