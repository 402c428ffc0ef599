package io.blockscope.server.rpc;

import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.jvm.ThreadAllocation;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server JVM's own cost counters, so a remote PE run can charge GC and allocation to the server
 * rather than to its client: cumulative GC pauses per collector (from JFR), heap bytes allocated
 * by all threads (request threads that ended included), heap and
 * direct memory in use.
 */
final class JvmStatus {

    private JvmStatus() {}

    /**
     * @param settleGc wait until JFR has delivered every pause up to now (about a second): PE asks
     *     for it, so that its readings bracket exactly the pauses of a step
     */
    static Map<String, Object> snapshot(boolean settleGc) {
        Map<String, Object> m = new LinkedHashMap<>();
        // The JFR reader starts with the first settled request (PE's): a server nobody measures
        // runs no recording of ours, and a plain /status never waits for one to start.
        GcPauses.Reading gc = settleGc || GcPauses.sharedStarted()
                ? GcPauses.shared().read(settleGc)
                : GcPauses.Reading.empty("not-started");
        m.put("gcSource", gc.source());
        m.put("gcSettled", gc.settled());
        m.put("gcPauseCount", gc.count());
        m.put("gcPauseSeconds", gc.seconds());
        Map<String, Object> byCollector = new LinkedHashMap<>();
        gc.byCollector()
                .forEach((name, p) -> byCollector.put(name, Map.of("count", p.count(), "seconds", p.seconds())));
        m.put("gcPauses", byCollector);
        m.put("allocatedBytes", ThreadAllocation.platform().allThreads());
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
