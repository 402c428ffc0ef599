package io.blockscope.exporter.gc;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.blockscope.exporter.Log;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The fallback source: GC notifications of the platform {@link GarbageCollectorMXBean}s.
 *
 * <p>Coarser than JFR: durations come in whole milliseconds (a sub-millisecond ZGC pause reads as
 * 0), the {@code gc} label is the MXBean's name (e.g. {@code G1 Young Generation}), and there is no
 * allocation estimate. Concurrent collectors have one bean for cycles (counted as collections, never
 * as pauses) and one for pauses.
 */
final class MxBeanGcCollector implements AutoCloseable {

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener;

    private MxBeanGcCollector(GcMetrics metrics) {
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        listener = (notification, handback) -> {
            try {
                onNotification(metrics, heapPools, notification);
            } catch (RuntimeException e) {
                Log.warnOnce("mxbean-gc", "could not read a GC notification; such notifications are skipped", e);
            }
        };
    }

    static MxBeanGcCollector start(GcMetrics metrics) {
        MxBeanGcCollector collector = new MxBeanGcCollector(metrics);
        NotificationFilter gcOnly =
                n -> GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType());
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter) {
                NotificationEmitter emitter = (NotificationEmitter) bean;
                emitter.addNotificationListener(collector.listener, gcOnly, null);
                collector.emitters.add(emitter);
            }
        }
        if (collector.emitters.isEmpty()) {
            throw new IllegalStateException("this JVM's GC MXBeans send no notifications");
        }
        return collector;
    }

    private static void onNotification(GcMetrics metrics, Set<String> heapPools, Notification n) {
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        String name = info.getGcName();
        String gc = metrics.collector(name);
        boolean cycle = info.getGcAction().contains("cycle");
        // "ZGC Pauses", "Shenandoah Pauses", and G1's remark/cleanup bean report pauses of a cycle
        // that the cycle bean (or JFR's G1Old) already counts as one collection.
        boolean pauseOfCycle = name.endsWith(" Pauses") || name.equals("G1 Concurrent GC");
        if (!cycle) {
            metrics.pause(gc, metrics.cause(info.getGcCause()), info.getGcInfo().getDuration() / 1000.0);
        }
        if (!pauseOfCycle) {
            metrics.collection(gc);
            metrics.heapBefore(gc, heapUsed(info.getGcInfo().getMemoryUsageBeforeGc(), heapPools));
            metrics.heapAfter(gc, heapUsed(info.getGcInfo().getMemoryUsageAfterGc(), heapPools));
        }
    }

    private static long heapUsed(Map<String, MemoryUsage> usage, Set<String> heapPools) {
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : usage.entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        return used;
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // already gone: nothing to undo
            }
        }
        emitters.clear();
    }
}
