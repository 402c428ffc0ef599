package io.blockscope.hbasers;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One of HBase's stock features read on a real RegionServer, with the copies of offheap cell bytes
 * onto the heap that HBase's source makes for it: bytes per cell by component (none for a zero-copy
 * feature), over how many cells, where in HBase's code that is decided, which site the agent should
 * name, and what to use instead.
 */
final class HBaseFeature {

    /** The read or write that exercises the feature; returns the cells (or rows) it saw. */
    interface Action {
        int run() throws IOException;
    }

    final String name;
    final String decidedIn;
    final Map<String, Integer> bytesPerCell = new LinkedHashMap<>();
    int cells;
    String sitePrefix;
    String alternative = "";
    /** What {@link #over} counts, when not cells. */
    String unit = "";

    Action action;

    private HBaseFeature(String name, String decidedIn) {
        this.name = name;
        this.decidedIn = decidedIn;
    }

    /** A feature named {@code name}, whose copies (or their absence) HBase decides in {@code decidedIn}. */
    static HBaseFeature of(String name, String decidedIn) {
        return new HBaseFeature(name, decidedIn);
    }

    /** Each of the {@link #over} cells copies {@code bytes} of its {@code component}. */
    HBaseFeature copies(String component, int bytes) {
        bytesPerCell.put(component, bytes);
        return this;
    }

    HBaseFeature over(int cells) {
        this.cells = cells;
        return this;
    }

    /** The copies are per {@code unit} (an RPC, a row read), not per cell. */
    HBaseFeature per(String unit) {
        this.unit = unit;
        return this;
    }

    /** The agent names its copies' sites starting with {@code prefix}. */
    HBaseFeature site(String prefix) {
        this.sitePrefix = prefix;
        return this;
    }

    HBaseFeature instead(String alternative) {
        this.alternative = alternative;
        return this;
    }

    HBaseFeature run(Action action) {
        this.action = action;
        return this;
    }

    boolean copying() {
        return !bytesPerCell.isEmpty();
    }

    long expectedBytes(String component) {
        return (long) bytesPerCell.getOrDefault(component, 0) * cells;
    }

    /** "value 1,000 B" and the like; "none" for a zero-copy feature. */
    String perCell() {
        if (!copying()) {
            return "none";
        }
        return bytesPerCell.entrySet().stream()
                        .map(e -> String.format("%s %,d B", e.getKey(), e.getValue()))
                        .collect(Collectors.joining(", "))
                + (unit.isEmpty() ? "" : " per " + unit);
    }

    @Override
    public String toString() {
        return name;
    }
}
