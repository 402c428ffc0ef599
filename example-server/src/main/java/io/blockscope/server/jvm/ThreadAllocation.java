package io.blockscope.server.jvm;

import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Bytes allocated on the heap by threads, from HotSpot's per-thread TLAB accounting
 * ({@code com.sun.management.ThreadMXBean}). Exact, cheap (no safepoint), and it does not see
 * direct (offheap) memory, which is what the zero-copy read path uses instead.
 *
 * <p>The bean only knows live threads, so a pool thread that ends would take its bytes with it and a
 * JVM total would drop. Threads run through {@link #counted(Runnable)} hand their final count in as
 * they end: exact, on every JDK (JDK 21's {@code getTotalThreadAllocatedBytes} would do the same but
 * the build runs on 17; JFR's allocation samples are an estimate).
 */
public final class ThreadAllocation {

    /** -1: the JVM cannot count allocation (not HotSpot, or the bean is off). */
    public static final long UNKNOWN = -1;

    private static final ThreadAllocation PLATFORM = new ThreadAllocation(threadBean());
    private static final ThreadAllocation UNSUPPORTED = new ThreadAllocation(null);

    private final com.sun.management.@Nullable ThreadMXBean threads;
    /** Final counts of counted threads that ended, and their ids (until they leave the bean's list). */
    private long endedBytes;

    private final Set<Long> ended = new HashSet<>();

    ThreadAllocation(com.sun.management.@Nullable ThreadMXBean threads) {
        this.threads = threads;
    }

    /** This JVM's counter. */
    public static ThreadAllocation platform() {
        return PLATFORM;
    }

    /** A counter that knows nothing, as on a JVM without the bean: every reading is {@link #UNKNOWN}. */
    public static ThreadAllocation unsupported() {
        return UNSUPPORTED;
    }

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

    /** Bytes the calling thread has allocated so far, or {@link #UNKNOWN}. */
    public long ofCurrentThread() {
        return threads == null
                ? UNKNOWN
                : threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** {@code now - start}, or {@link #UNKNOWN} when either is unknown (never a made-up 0). */
    public static long between(long start, long now) {
        return start < 0 || now < 0 ? UNKNOWN : now - start;
    }

    /**
     * Bytes allocated so far by all live threads of this JVM plus the final counts of the {@link
     * #counted} threads that ended, or {@link #UNKNOWN}.
     */
    public long allThreads() {
        if (threads == null) {
            return UNKNOWN;
        }
        synchronized (this) {
            long[] ids = threads.getAllThreadIds();
            long[] bytes = threads.getThreadAllocatedBytes(ids);
            long total = endedBytes;
            Set<Long> stillListed = new HashSet<>();
            for (int i = 0; i < ids.length; i++) {
                if (ended.contains(ids[i])) {
                    stillListed.add(ids[i]); // counted in endedBytes already
                } else if (bytes[i] > 0) {
                    total += bytes[i];
                }
            }
            ended.retainAll(stillListed); // thread ids are never reused
            return total;
        }
    }

    /** {@code task}, made to hand its thread's final allocation in when it ends. */
    public Runnable counted(Runnable task) {
        return () -> {
            try {
                task.run();
            } finally {
                ended();
            }
        };
    }

    private void ended() {
        long bytes = ofCurrentThread();
        if (bytes > 0) {
            synchronized (this) {
                endedBytes += bytes;
                ended.add(Thread.currentThread().getId());
            }
        }
    }
}
