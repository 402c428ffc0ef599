package io.blockscope.agent.profile;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How an occupancy probe reads a captured cache at scrape time. Each value starts at the captured
 * instance ({@code this}); the size-class values start at one element of {@code sizeClasses} (an
 * array or an {@code Iterable}). Any of them may be null when the server has no such fact.
 */
public final class OccupancySpec {
    private final ValueRef capacity;
    private final ValueRef used;
    private final ValueRef wasted;
    private final ValueRef allocationFailures;
    private final ValueRef readPathMode;
    private final ValueRef sizeClasses;
    private final ValueRef itemSize;
    private final ValueRef usedSlots;
    private final ValueRef freeSlots;
    private final ValueRef usedBytes;
    private final ValueRef freeBytes;
    private final Map<String, Pattern> readPathModeLabels;

    public OccupancySpec(
            ValueRef capacity,
            ValueRef used,
            ValueRef wasted,
            ValueRef allocationFailures,
            ValueRef readPathMode,
            ValueRef sizeClasses,
            ValueRef itemSize,
            ValueRef usedSlots,
            ValueRef freeSlots,
            ValueRef usedBytes,
            ValueRef freeBytes) {
        this(
                capacity,
                used,
                wasted,
                allocationFailures,
                readPathMode,
                Map.of(),
                sizeClasses,
                itemSize,
                usedSlots,
                freeSlots,
                usedBytes,
                freeBytes);
    }

    /**
     * @param readPathModeLabels how a {@code readPathMode} value that is not itself a label becomes one:
     *     label by regular expression, in order; the first expression found in the value's string
     *     form gives the label. Empty: the value's string form is the label.
     */
    public OccupancySpec(
            ValueRef capacity,
            ValueRef used,
            ValueRef wasted,
            ValueRef allocationFailures,
            ValueRef readPathMode,
            Map<String, Pattern> readPathModeLabels,
            ValueRef sizeClasses,
            ValueRef itemSize,
            ValueRef usedSlots,
            ValueRef freeSlots,
            ValueRef usedBytes,
            ValueRef freeBytes) {
        this.readPathModeLabels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(readPathModeLabels));
        this.capacity = capacity;
        this.used = used;
        this.wasted = wasted;
        this.allocationFailures = allocationFailures;
        this.readPathMode = readPathMode;
        this.sizeClasses = sizeClasses;
        this.itemSize = itemSize;
        this.usedSlots = usedSlots;
        this.freeSlots = freeSlots;
        this.usedBytes = usedBytes;
        this.freeBytes = freeBytes;
    }

    public ValueRef capacity() {
        return capacity;
    }

    public ValueRef used() {
        return used;
    }

    public ValueRef wasted() {
        return wasted;
    }

    public ValueRef allocationFailures() {
        return allocationFailures;
    }

    public ValueRef readPathMode() {
        return readPathMode;
    }

    /** Label by regular expression for {@link #readPathMode()} values; empty when the value is the label. */
    public Map<String, Pattern> readPathModeLabels() {
        return readPathModeLabels;
    }

    /**
     * The label of a {@code readPathMode} value: its string form, or with {@link #readPathModeLabels()}
     * the first label whose expression is found in it; null when none is.
     */
    public String readPathModeLabel(Object value) {
        String text = String.valueOf(value);
        if (readPathModeLabels.isEmpty()) {
            return text;
        }
        for (Map.Entry<String, Pattern> label : readPathModeLabels.entrySet()) {
            if (label.getValue().matcher(text).find()) {
                return label.getKey();
            }
        }
        return null;
    }

    public ValueRef sizeClasses() {
        return sizeClasses;
    }

    public ValueRef itemSize() {
        return itemSize;
    }

    public ValueRef usedSlots() {
        return usedSlots;
    }

    public ValueRef freeSlots() {
        return freeSlots;
    }

    public ValueRef usedBytes() {
        return usedBytes;
    }

    public ValueRef freeBytes() {
        return freeBytes;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof OccupancySpec)) {
            return false;
        }
        OccupancySpec that = (OccupancySpec) o;
        return java.util.Objects.equals(capacity, that.capacity)
                && java.util.Objects.equals(used, that.used)
                && java.util.Objects.equals(wasted, that.wasted)
                && java.util.Objects.equals(allocationFailures, that.allocationFailures)
                && java.util.Objects.equals(readPathMode, that.readPathMode)
                && readPathModeLabels.keySet().equals(that.readPathModeLabels.keySet())
                && java.util.Objects.equals(sizeClasses, that.sizeClasses)
                && java.util.Objects.equals(itemSize, that.itemSize)
                && java.util.Objects.equals(usedSlots, that.usedSlots)
                && java.util.Objects.equals(freeSlots, that.freeSlots)
                && java.util.Objects.equals(usedBytes, that.usedBytes)
                && java.util.Objects.equals(freeBytes, that.freeBytes);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(
                capacity,
                used,
                wasted,
                allocationFailures,
                readPathMode,
                sizeClasses,
                itemSize,
                usedSlots,
                freeSlots,
                usedBytes,
                freeBytes);
    }

    @Override
    public String toString() {
        return "OccupancySpec[capacity=" + capacity + ", used=" + used + ", wasted=" + wasted + ", allocationFailures="
                + allocationFailures + ", readPathMode=" + readPathMode + ", sizeClasses=" + sizeClasses + ", itemSize="
                + itemSize + ", usedSlots=" + usedSlots + ", freeSlots=" + freeSlots + ", usedBytes=" + usedBytes
                + ", freeBytes=" + freeBytes + "]";
    }
}
