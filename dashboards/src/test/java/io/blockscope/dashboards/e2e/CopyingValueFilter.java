package io.blockscope.dashboards.e2e;

import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.Filter;

/**
 * A deliberately bad scan filter: it reads every value with {@code getValueArray()}, which copies the
 * value from the offheap block onto the heap, and then drops the cell. The end-to-end test drives scans
 * through it and expects BlockscopeHotCopyPath to name this class as the hot copy site.
 */
public final class CopyingValueFilter implements Filter {

    private long copiedBytes;

    public CopyingValueFilter() {
    }

    @Override
    public Decision filterCell(Cell cell) {
        byte[] value = cell.getValueArray();
        copiedBytes += value.length;
        // Dropping every cell keeps responses empty, so the scan spends its time copying.
        return Decision.SKIP;
    }

    /** Bytes this instance copied (keeps the copies observable). */
    public long copiedBytes() {
        return copiedBytes;
    }
}
