package io.blockscope.server.filter;

import io.blockscope.server.cell.Cell;

/**
 * Reads every cell and returns none: the seed's {@code --filterAll}, which measures the server's
 * read cost without any network or client cost.
 */
public final class FilterAll implements Filter {

    @Override
    public Decision filterCell(Cell cell) {
        return Decision.SKIP;
    }

    @Override
    public String toString() {
        return "all";
    }
}
