package io.blockscope.server.jvm;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What this JVM really holds: heap and direct buffer memory right after a full collection. The
 * figures a long run reads between collections (heap after the latest young GC, direct memory in use)
 * also count garbage that reached the old generation and waits for G1's next concurrent cycle; a
 * direct buffer that did is not freed before then either. Only after a full collection does a rise
 * mean something is kept, which is the test HBASE-11678's unbounded writer queue would fail.
 *
 * <p>A measurement stops the world for a full collection: take it between measured stretches, and
 * count its pause in none of them.
 */
public final class LiveMemory {

    /** How long to wait for the reference handler to free the buffers the collection found dead. */
    private static final long CLEANER_WAIT_MILLIS = 2_000;

    private static final long POLL_MILLIS = 20;

    /** System.gc() calls before a measurement says no collection ran. */
    private static final int GC_CALLS = 3;

    /**
     * Heap in use and direct buffer memory in use, in bytes, after one full collection; {@code
     * directBytes} is null where the JVM has no direct buffer pool to read.
     */
    public record Reading(long heapBytes, @Nullable Long directBytes) {}

    private LiveMemory() {}

    /**
     * Runs a full collection and reads what is left. Empty when three calls of System.gc() ran no
     * collection (the JVM was started with {@code -XX:+DisableExplicitGC}, say): then the figures
     * would be just another reading between collections, and must not pass for live ones.
     */
    public static Optional<Reading> measure() throws InterruptedException {
        // The VM may skip a System.gc() now and then (a thread in a JNI critical region holds the
        // collection off): ask a few times before saying none ran.
        boolean collected = false;
        for (int call = 0; call < GC_CALLS && !collected; call++) {
            long before = collections();
            System.gc();
            collected = collections() != before;
        }
        if (!collected) {
            return Optional.empty();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        OptionalLong direct = settledDirectBytes();
        return Optional.of(new Reading(heap, direct.isPresent() ? direct.getAsLong() : null));
    }

    /**
     * Direct memory once the dead buffers' cleaners have run: they run on the reference handler
     * thread after the collection returns, so poll until two readings agree (or the wait runs out).
     */
    private static OptionalLong settledDirectBytes() throws InterruptedException {
        OptionalLong last = directBytes();
        long deadline = System.nanoTime() + CLEANER_WAIT_MILLIS * 1_000_000;
        while (last.isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            OptionalLong now = directBytes();
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** Direct buffer memory in use now (the {@code direct} buffer pool), if the JVM says. */
    public static OptionalLong directBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return OptionalLong.of(pool.getMemoryUsed());
            }
        }
        return OptionalLong.empty();
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }
}
