package io.blockscope.dashboards.e2e;

import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.Filter;

/**
 * A deliberately bad scan filter: it reads every value with {@code getValueArray()}, which copies the
 * value from the offheap block onto the heap, and then drops the cell. The end-to-end test drives scans
 * through it and expects BlockscopeHotCopyPath to name this class as the hot copy site.
 *
 * <p>It is also slow now and then: every {@value #SLOW_EVERY}th cell takes {@value #SLOW_MILLIS} ms, while
 * its scan holds the cell's block. With the agent's {@code leak.age=1ms} a scrape in such a moment counts
 * an age leak, so the leak panels get data whatever the machine's speed (without it, only a scrape that
 * happened to catch a block held across a GC pause did).
 */
public final class CopyingValueFilter implements Filter {

    static final int SLOW_EVERY = 4096;
    static final long SLOW_MILLIS = 5;

    private long copiedBytes;
    private long cells;

    public CopyingValueFilter() {}

    @Override
    public Decision filterCell(Cell cell) {
        byte[] value = cell.getValueArray();
        copiedBytes += value.length;
        if (++cells % SLOW_EVERY == 0) {
            pause();
        }
        // Dropping every cell keeps responses empty, so the scan spends its time copying.
        return Decision.SKIP;
    }

    private static void pause() {
        try {
            Thread.sleep(SLOW_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Bytes this instance copied (keeps the copies observable). */
    public long copiedBytes() {
        return copiedBytes;
    }
}
