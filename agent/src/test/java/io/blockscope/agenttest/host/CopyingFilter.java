package io.blockscope.agenttest.host;

import io.blockscope.server.cell.Cell;

/** A filter written the old way: it reads values through getValueArray(), copying every one onto the heap. */
public final class CopyingFilter {

    private long checksum;

    public boolean filterCell(Cell cell) {
        byte[] value = cell.getValueArray(); // the copy the agent must attribute to this line
        checksum += value[cell.getValueOffset()];
        return value.length > 0;
    }

    public long checksum() {
        return checksum;
    }
}
