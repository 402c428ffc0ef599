package io.blockscope.server.rpc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A cell as a client receives it: plain arrays, owned by the caller. */
public record ClientCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientCell c
                && timestamp == c.timestamp
                && Arrays.equals(row, c.row)
                && Arrays.equals(family, c.family)
                && Arrays.equals(qualifier, c.qualifier)
                && Arrays.equals(value, c.value);
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(row);
        h = 31 * h + Arrays.hashCode(qualifier);
        h = 31 * h + Long.hashCode(timestamp);
        return 31 * h + Arrays.hashCode(value);
    }

    public String rowString() {
        return new String(row, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return rowString() + "/" + new String(family, StandardCharsets.UTF_8) + ":"
                + new String(qualifier, StandardCharsets.UTF_8) + "/" + timestamp + " (" + value.length + " B)";
    }
}
