package io.blockscope.server.filter;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;

/**
 * A filter loaded by class name in tests ({@code class:io.blockscope.server.filter.EvenRowsFilter}):
 * keeps the rows whose key ends in an even digit. Reads the key through the buffer accessors.
 */
public final class EvenRowsFilter implements Filter {

    private boolean firstCell;
    private boolean keep;

    @Override
    public void startRow() {
        firstCell = true;
    }

    @Override
    public Decision filterCell(Cell cell) {
        if (firstCell) {
            firstCell = false;
            int last = cell.getRowLength() - 1;
            byte digit = cell instanceof ByteBufferCell bb
                    ? bb.getRowByteBuffer().get(bb.getRowPosition() + last)
                    : cell.getRowArray()[cell.getRowOffset() + last];
            keep = (digit - '0') % 2 == 0;
        }
        return keep ? Decision.INCLUDE : Decision.NEXT_ROW;
    }
}
