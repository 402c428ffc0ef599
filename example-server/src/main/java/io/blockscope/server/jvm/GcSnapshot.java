package io.blockscope.server.jvm;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Cumulative GC pause count and time of this JVM, from the GarbageCollectorMXBeans.
 *
 * <p>Beans whose name ends in "Cycles" (ZGC, Shenandoah) time whole concurrent cycles, not pauses,
 * and are left out; their "Pauses" beans are counted instead. For G1, Parallel and Serial every
 * bean's collection time is stop-the-world time.
 */
public record GcSnapshot(long pauseCount, long pauseMillis) {

    public static GcSnapshot take() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().endsWith("Cycles")) {
                continue;
            }
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new GcSnapshot(count, millis);
    }

    public GcSnapshot minus(GcSnapshot earlier) {
        return new GcSnapshot(pauseCount - earlier.pauseCount, pauseMillis - earlier.pauseMillis);
    }

    public double pauseSeconds() {
        return pauseMillis / 1000.0;
    }
}
