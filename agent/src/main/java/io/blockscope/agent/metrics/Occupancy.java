package io.blockscope.agent.metrics;

import io.blockscope.agent.profile.OccupancySpec;
import io.blockscope.agent.profile.ValueRef;
import io.blockscope.exporter.Log;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Bucket occupancy summed over the live captured caches, read at scrape time. A value the server
 * does not have (no accessor in the profile) stays absent; one that fails is logged once and
 * skipped, never failing the scrape.
 */
final class Occupancy {

    /** Slots and bytes of one size class. */
    static final class SizeClass {
        long usedSlots;
        long freeSlots;
        long usedBytes;
        long freeBytes;
    }

    Long capacity;
    Long used;
    Long wasted;
    Long allocationFailures;
    final Set<String> readPathModes = new TreeSet<>();
    final Map<Long, SizeClass> sizeClasses = new TreeMap<>();
    /** Values left out of this read because their accessor threw (blockscope_agent_dropped_total). */
    int failures;

    static Occupancy read(OccupancySpec spec, List<Object> caches, Accessors accessors, String probe) {
        Occupancy out = new Occupancy();
        for (Object cache : caches) {
            out.capacity = out.add(out.capacity, spec.capacity(), cache, accessors, probe);
            out.used = out.add(out.used, spec.used(), cache, accessors, probe);
            out.wasted = out.add(out.wasted, spec.wasted(), cache, accessors, probe);
            out.allocationFailures =
                    out.add(out.allocationFailures, spec.allocationFailures(), cache, accessors, probe);
            if (spec.readPathMode() != null) {
                try {
                    Object mode = accessors.evaluate(spec.readPathMode(), cache);
                    String label = mode == null ? null : spec.readPathModeLabel(mode);
                    if (label != null) {
                        out.readPathModes.add(label);
                    } else if (mode != null) {
                        Log.warnOnce(
                                "occupancy:" + probe + ":mode:" + mode,
                                "probe " + probe + ": read-path mode value '" + mode
                                        + "' matches none of the profile's readPathMode labels; no mode is exported for it",
                                null);
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    out.failed(probe, spec.readPathMode(), e);
                }
            }
            if (spec.sizeClasses() != null) {
                try {
                    for (Object element : elements(accessors.evaluate(spec.sizeClasses(), cache))) {
                        long itemSize = accessors.number(spec.itemSize(), element);
                        SizeClass sizeClass = out.sizeClasses.computeIfAbsent(itemSize, k -> new SizeClass());
                        sizeClass.usedSlots += optional(spec.usedSlots(), element, accessors);
                        sizeClass.freeSlots += optional(spec.freeSlots(), element, accessors);
                        sizeClass.usedBytes += optional(spec.usedBytes(), element, accessors);
                        sizeClass.freeBytes += optional(spec.freeBytes(), element, accessors);
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    out.failed(probe, spec.sizeClasses(), e);
                }
            }
        }
        return out;
    }

    private static long optional(ValueRef ref, Object element, Accessors accessors)
            throws ReflectiveOperationException {
        return ref == null ? 0 : accessors.number(ref, element);
    }

    private Long add(Long sum, ValueRef ref, Object cache, Accessors accessors, String probe) {
        if (ref == null) {
            return sum;
        }
        try {
            long value = accessors.number(ref, cache);
            return sum == null ? value : sum + value;
        } catch (ReflectiveOperationException | RuntimeException e) {
            failed(probe, ref, e);
            return sum;
        }
    }

    private static Iterable<?> elements(Object value) {
        if (value instanceof Iterable<?>) {
            return (Iterable<?>) value;
        }
        if (value != null && value.getClass().isArray()) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                out.add(Array.get(value, i));
            }
            return out;
        }
        throw new IllegalStateException("sizeClasses is neither an array nor an Iterable: " + value);
    }

    private void failed(String probe, ValueRef ref, Throwable e) {
        failures++;
        Throwable cause =
                e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null ? e.getCause() : e;
        Log.warnOnce(
                "occupancy:" + probe + ":" + ref,
                "probe " + probe + " cannot read " + ref + " at scrape time; that occupancy value is left out",
                cause);
    }
}
