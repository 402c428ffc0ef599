package io.blockscope.agenttest.host;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * Measures the heap bytes the current thread allocates over a million instrumented calls (get,
 * return, copy, lookup with a checkout condition, matched release) and prints {@code bytesPerCall=...}. Run with the agent and sampling off.
 */
public final class AllocationDriver {

    public static void main(String[] args) {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        FakeCache cache = new FakeCache();
        long sink = 0;
        for (int i = 0; i < 200_000; i++) { // warm up: JIT, and the thread's counter row (allocated on its first count)
            sink += run(cache, i);
        }
        long before = threads.getThreadAllocatedBytes(thread);
        long baseline = threads.getThreadAllocatedBytes(thread) - before; // the measurement's own cost
        before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < calls / 3; i++) {
            sink += run(cache, i);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before - baseline;
        System.out.println("calls=" + (calls / 3 * 3) + " allocated=" + allocated + " bytesPerCall="
                + ((double) allocated / (calls / 3 * 3)) + " sink=" + sink + " fakeCalls=" + cache.calls());
    }

    private static long run(FakeCache cache, long i) {
        Object block = cache.getBlock(i);
        if (block != null) {
            cache.returnBlock(i, block);
        }
        FakeCache.FakeBlock looked = cache.lookup(i);
        if (looked != null && looked.shared()) {
            cache.releaseBlock(looked);
        }
        cache.releaseBlock(cache.read());
        return cache.copyValue().length;
    }
}
