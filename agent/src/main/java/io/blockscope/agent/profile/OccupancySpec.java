package io.blockscope.agent.profile;

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
