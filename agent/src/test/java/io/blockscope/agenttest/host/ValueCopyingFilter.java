package io.blockscope.agenttest.host;

import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.Filter;

/**
 * A server-side scan filter written the old way: it reads every value with getValueArray(), so
 * every cell it sees is copied onto the heap. Loaded by the example server from its class path.
 */
public final class ValueCopyingFilter implements Filter {

    @Override
    public Decision filterCell(Cell cell) {
        byte[] value = cell.getValueArray(); // one copy per cell, at this line
        return value[cell.getValueOffset()] % 2 == 0 ? Decision.INCLUDE : Decision.SKIP;
    }
}
