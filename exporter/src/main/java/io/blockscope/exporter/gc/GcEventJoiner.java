package io.blockscope.exporter.gc;

import io.blockscope.exporter.Log;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins JFR's per-pause and per-heap-summary events to their collection by {@code gcId}.
 *
 * <p>A collection's {@code jdk.GCPhasePause} and {@code jdk.GCHeapSummary} events carry only the
 * {@code gcId}; the collector name and cause that label them arrive in {@code
 * jdk.GarbageCollection}, which the ordered stream may deliver before or after them (for ZGC the
 * "After GC" summary comes after the collection, its pauses before). So whichever arrives first
 * waits here for the other. Used by the single JFR stream thread only: not thread-safe.
 */
final class GcEventJoiner {

    /** Collections whose events may still be in flight; JFR delivers a collection's events together. */
    private static final int MAX_TRACKED = 64;

    private final GcMetrics metrics;
    private final Map<Long, Pending> waiting = new LinkedHashMap<>();
    private final Map<Long, Collection> recent = lru();

    GcEventJoiner(GcMetrics metrics) {
        this.metrics = metrics;
    }

    void onCollection(long gcId, String name, String cause) {
        Collection c = new Collection(metrics.collector(name), metrics.cause(cause));
        metrics.collection(c.gc);
        recent.put(gcId, c);
        Pending p = waiting.remove(gcId);
        if (p != null) {
            for (double seconds : p.pauses) {
                metrics.pause(c.gc, c.cause, seconds);
            }
            if (p.heapBefore >= 0) {
                metrics.heapBefore(c.gc, p.heapBefore);
            }
            if (p.heapAfter >= 0) {
                metrics.heapAfter(c.gc, p.heapAfter);
            }
        }
    }

    void onPause(long gcId, double seconds) {
        Collection c = recent.get(gcId);
        if (c != null) {
            metrics.pause(c.gc, c.cause, seconds);
        } else {
            pending(gcId).pauses.add(seconds);
        }
    }

    void onHeapSummary(long gcId, boolean before, long heapUsed) {
        Collection c = recent.get(gcId);
        if (c != null) {
            if (before) {
                metrics.heapBefore(c.gc, heapUsed);
            } else {
                metrics.heapAfter(c.gc, heapUsed);
            }
            return;
        }
        Pending p = pending(gcId);
        if (before) {
            p.heapBefore = heapUsed;
        } else {
            p.heapAfter = heapUsed;
        }
    }

    private Pending pending(long gcId) {
        Pending p = waiting.get(gcId);
        if (p == null) {
            if (waiting.size() == MAX_TRACKED) {
                // The eldest waited longest: its collection event is not coming (JFR lost it).
                Iterator<Pending> eldest = waiting.values().iterator();
                eldest.next();
                eldest.remove();
                Log.warnOnce(
                        "gc-join",
                        "JFR delivered GC pauses without their collection event (events lost?); such pauses are"
                                + " left out of blockscope_gc_pause_seconds",
                        null);
            }
            p = new Pending();
            waiting.put(gcId, p);
        }
        return p;
    }

    private static <V> Map<Long, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, V> eldest) {
                return size() > MAX_TRACKED;
            }
        };
    }

    private static final class Collection {
        final String gc;
        final String cause;

        Collection(String gc, String cause) {
            this.gc = gc;
            this.cause = cause;
        }
    }

    private static final class Pending {
        final List<Double> pauses = new ArrayList<>(4);
        long heapBefore = -1;
        long heapAfter = -1;
    }
}
