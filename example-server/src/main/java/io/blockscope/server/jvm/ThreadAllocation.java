package io.blockscope.server.jvm;

import java.lang.management.ManagementFactory;
import org.jspecify.annotations.Nullable;

/**
 * Bytes allocated on the heap by threads, from HotSpot's per-thread TLAB accounting
 * ({@code com.sun.management.ThreadMXBean}). Exact, cheap (no safepoint), and it does not see
 * direct (offheap) memory, which is what the zero-copy read path uses instead.
 */
public final class ThreadAllocation {

    private static final com.sun.management.@Nullable ThreadMXBean THREADS = threadBean();

    private ThreadAllocation() {}

    private static com.sun.management.@Nullable ThreadMXBean threadBean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()) {
            if (!bean.isThreadAllocatedMemoryEnabled()) {
                bean.setThreadAllocatedMemoryEnabled(true);
            }
            return bean;
        }
        return null;
    }

    /** Bytes the calling thread has allocated so far, or -1 when unsupported. */
    public static long currentThread() {
        return THREADS == null
                ? -1
                : THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** Bytes allocated so far by all live threads of this JVM (threads that ended are not counted). */
    public static long allLiveThreads() {
        if (THREADS == null) {
            return -1;
        }
        long total = 0;
        for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            if (bytes > 0) {
                total += bytes;
            }
        }
        return total;
    }
}
