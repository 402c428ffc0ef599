package io.blockscope.exporter.gc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a label's values bounded: the first {@code limit} distinct values are kept as they are,
 * every later one becomes {@value #OTHER}. First-come rather than most-frequent, because a series
 * that changes its label value later would break its counters; the JVM's GC causes and collector
 * names are a small fixed set, so in practice the bound is a guard, not a filter.
 */
final class BoundedLabel {

    static final String OTHER = "other";

    private final int limit;
    private final Map<String, String> kept = new ConcurrentHashMap<>();

    BoundedLabel(int limit) {
        this.limit = limit;
    }

    String of(String value) {
        String v = value == null || value.isEmpty() ? "unknown" : value;
        String known = kept.get(v);
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (kept.size() < limit) {
                kept.putIfAbsent(v, v);
                return v;
            }
        }
        return kept.getOrDefault(v, OTHER);
    }
}
