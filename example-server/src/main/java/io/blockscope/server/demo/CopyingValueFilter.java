package io.blockscope.server.demo;

import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.Filter;

/**
 * A scan filter written the pre-HBASE-11425 way: it reads each value through
 * {@code getValueArray()}, which on an offheap cell copies the value onto the heap. It keeps the
 * rows whose first value starts with byte 0 (about 1 in 256 of random values), so a scan returns
 * little and nearly all of its cost is the copying. The agent names {@link #filterCell} as the copy
 * site.
 *
 * <p>Use it as {@code filter=class:io.blockscope.server.demo.CopyingValueFilter} on a scan.
 */
public final class CopyingValueFilter implements Filter {

    private boolean firstCellOfRow;
    private boolean keepRow;

    @Override
    public void startRow() {
        firstCellOfRow = true;
    }

    @Override
    public Decision filterCell(Cell cell) {
        byte[] value = cell.getValueArray(); // the mistake: a heap copy of every value
        if (firstCellOfRow) {
            firstCellOfRow = false;
            keepRow = cell.getValueLength() > 0 && value[cell.getValueOffset()] == 0;
        }
        return keepRow ? Decision.INCLUDE : Decision.NEXT_ROW;
    }
}
