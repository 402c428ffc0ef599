package io.blockscope.server.cache;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/** How many bytes this JVM can still reserve, for a cache that is reserved whole at startup. */
final class MemoryRoom {

    private MemoryRoom() {}

    /**
     * Direct memory left under {@code -XX:MaxDirectMemorySize} (whose default, 0, means the maximum
     * heap size), after the direct buffers already reserved.
     */
    static long direct() {
        long limit = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize")
                .getValue());
        if (limit <= 0) {
            limit = Runtime.getRuntime().maxMemory();
        }
        long used = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                used += pool.getMemoryUsed();
            }
        }
        return limit - used;
    }

    /** Heap left under {@code -Xmx}, beside what is in use now. */
    static long heap() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    }
}
