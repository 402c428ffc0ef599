package io.blockscope.exporter.page;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What copies cost this server's heap: their share of its heap allocation (copy bytes/s over JFR's
 * allocation estimate, {@code blockscope_allocated_bytes_total}, over the page's rate window) and the
 * young collections a minute that share stands for (share × the young collections a minute over the
 * page's history, which is long enough to count a few). Without an allocation figure (GC metrics from
 * the MXBeans: JDK 11 to 15, or JFR off) the share is unknown and {@link #unavailable} says why; it is
 * never a division by zero.
 */
final class Price {

    /**
     * JFR's names of the collectors that collect the young generation alone (G1's young and mixed
     * pauses are both {@code G1New}); ZGC before generations ({@code Z}) and Shenandoah collect the
     * whole heap each cycle and have no young collections.
     */
    static final Set<String> YOUNG = Set.of("G1New", "ParallelScavenge", "DefNew", "ZGC Minor");

    /** Estimated heap allocation, bytes/s over the rate window; NaN when unknown. */
    final double allocatedBytesPerSecond;
    /** Copies' share of it (0..1, or a little above where the estimate undershoots); NaN when unknown. */
    final double copyShare;
    /** This server's young collections a minute over the history; NaN when there are none to count. */
    final double youngPerMinute;
    /** The young collectors counted ({@code G1New}), comma separated; empty when none. */
    final String youngCollectors;
    /** Why the share is unknown, or null when it is known. */
    final String unavailable;
    /** Why the young collections are unknown, or null. */
    final String youngUnavailable;

    private Price(
            double allocatedBytesPerSecond,
            double copyShare,
            double youngPerMinute,
            String youngCollectors,
            String unavailable,
            String youngUnavailable) {
        this.allocatedBytesPerSecond = allocatedBytesPerSecond;
        this.copyShare = copyShare;
        this.youngPerMinute = youngPerMinute;
        this.youngCollectors = youngCollectors;
        this.unavailable = unavailable;
        this.youngUnavailable = youngUnavailable;
    }

    /** The share of heap allocation that {@code bytesPerSecond} of copies are; NaN when unknown. */
    double share(double bytesPerSecond) {
        return unavailable == null ? bytesPerSecond / allocatedBytesPerSecond : Double.NaN;
    }

    /** Young collections a minute that {@code bytesPerSecond} of copies stand for; NaN when unknown. */
    double youngPerMinute(double bytesPerSecond) {
        return youngUnavailable == null ? share(bytesPerSecond) * youngPerMinute : Double.NaN;
    }

    /**
     * @param base the sample rates are taken from (null without rates)
     * @param copyBytesPerSecond all copies onto the heap over the same window
     */
    static Price of(List<Sample> samples, Sample base, Sample latest, double copyBytesPerSecond) {
        if (latest == null || base == null) {
            return new Price(Double.NaN, Double.NaN, Double.NaN, "", "measuring", "measuring");
        }
        double allocated = Double.NaN;
        String unavailable = null;
        if (Double.isNaN(latest.allocatedBytes)) {
            unavailable = withoutAllocation(latest.gcSource);
        } else if (Double.isNaN(base.allocatedBytes)) {
            unavailable = "measuring";
        } else {
            double seconds = (latest.timeMillis - base.timeMillis) / 1000.0;
            allocated = Math.max(0, latest.allocatedBytes - base.allocatedBytes) / seconds;
            if (allocated <= 0) {
                unavailable = "no heap allocation measured in the last "
                        + Format.duration(latest.timeMillis - base.timeMillis);
            }
        }
        double share = unavailable == null ? copyBytesPerSecond / allocated : Double.NaN;

        Sample first = samples.get(0);
        Set<String> young = new TreeSet<>();
        double collections = 0;
        for (Map.Entry<String, Double> e : latest.gcCollections.entrySet()) {
            if (YOUNG.contains(e.getKey())) {
                young.add(e.getKey());
                collections += e.getValue() - first.gcCollections.getOrDefault(e.getKey(), 0.0);
            }
        }
        String youngUnavailable = null;
        double perMinute = Double.NaN;
        long history = latest.timeMillis - first.timeMillis;
        if (unavailable != null) {
            youngUnavailable = unavailable;
        } else if (!young.isEmpty()) {
            perMinute = history > 0 ? Math.max(0, collections) * 60_000.0 / history : Double.NaN;
            youngUnavailable = history > 0 ? null : "measuring";
        } else if (!latest.gcCollections.isEmpty()) {
            youngUnavailable = "this JVM's collector (" + String.join(", ", latest.gcCollections.keySet())
                    + ") has no young collections";
        } else {
            youngUnavailable = "no collections counted yet";
        }
        return new Price(allocated, share, perMinute, String.join(", ", young), unavailable, youngUnavailable);
    }

    private static String withoutAllocation(String gcSource) {
        if ("mxbean".equals(gcSource)) {
            return "no allocation figure: GC metrics come from the GC MXBeans (JDK 11 to 15, or JFR off),"
                    + " which do not measure allocation";
        }
        if ("off".equals(gcSource)) {
            return "no allocation figure: GC metrics are off (gc.source=off)";
        }
        return "no allocation figure: blockscope_allocated_bytes_total is not exported (JFR is not running)";
    }
}
