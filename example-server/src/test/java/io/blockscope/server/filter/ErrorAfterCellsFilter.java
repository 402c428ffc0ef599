package io.blockscope.server.filter;

import io.blockscope.server.cell.Cell;

/**
 * A filter that includes cells, then throws a {@link StackOverflowError} (an {@link Error} nothing
 * in the read path catches) in the middle of a scan, while the result already pins blocks.
 */
public final class ErrorAfterCellsFilter implements Filter {

    /** Cells included before the error. */
    public static final int CELLS = 200;

    private int offered;

    @Override
    public Decision filterCell(Cell cell) {
        if (++offered > CELLS) {
            throw new StackOverflowError("filter failed mid-scan (test)");
        }
        return Decision.INCLUDE;
    }
}
