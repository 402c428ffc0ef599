package io.blockscope.server.rpc;

import io.blockscope.server.jvm.GcSnapshot;
import io.blockscope.server.jvm.ThreadAllocation;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server JVM's own cost counters, so a remote PE run can charge GC and allocation to the server
 * rather than to its client: cumulative GC pauses, heap bytes allocated by live threads, heap and
 * direct memory in use.
 */
final class JvmStatus {

    private JvmStatus() {}

    static Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        GcSnapshot gc = GcSnapshot.take();
        m.put("gcPauseCount", gc.pauseCount());
        m.put("gcPauseSeconds", gc.pauseSeconds());
        m.put("allocatedBytes", ThreadAllocation.allLiveThreads());
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        m.put("heapUsedBytes", heap.getUsed());
        m.put("heapMaxBytes", heap.getMax());
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                m.put("directUsedBytes", pool.getMemoryUsed());
            }
        }
        m.put("version", Runtime.version().toString());
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        return m;
    }
}
