package io.blockscope.server.pe;

import io.blockscope.server.jvm.LiveMemory;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The memory the deploy comparison reads at the end of each tick, without forcing a collection:
 * heap after the latest GC, resident set and direct memory. Each is null when the JVM or the OS
 * cannot give it, never 0.
 */
final class ProcessMemory {

    private ProcessMemory() {}

    /**
     * The whole heap in use right after the latest collection (young or old), from that collection's
     * own record: what stays flat when nothing accumulates. (A pool's own "collection usage" will not
     * do: G1's old generation updates it only at mixed and full collections.) Null when unknown.
     */
    static Long heapAfterGc() {
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        com.sun.management.GcInfo latest = null;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                com.sun.management.GcInfo info = sun.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return null;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : latest.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        return used;
    }

    /** The process's resident set from /proc/self/status, or null off Linux. */
    static Long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** Direct memory in use (dead buffers included until their cleaners run), or null when unknown. */
    static Long direct() {
        OptionalLong direct = LiveMemory.directBytes();
        return direct.isPresent() ? direct.getAsLong() : null;
    }
}
