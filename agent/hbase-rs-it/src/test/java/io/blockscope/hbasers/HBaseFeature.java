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
    /** Bytes per {@link #over} unit HBase copies by design, by operation: counted apart, not avoidable. */
    final Map<String, Integer> byDesignPerCell = new LinkedHashMap<>();

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

    /**
     * Each of the {@link #over} cells (or units) copies {@code bytes} by design, counted under {@code
     * operation} in {@code blockscope_copy_by_design_bytes_total}.
     */
    HBaseFeature byDesign(String operation, int bytes) {
        byDesignPerCell.put(operation, bytes);
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

    /** Copies only by design: none avoidable. */
    boolean onlyByDesign() {
        return !copying() && !byDesignPerCell.isEmpty();
    }

    long expectedBytes(String component) {
        return (long) bytesPerCell.getOrDefault(component, 0) * cells;
    }

    long expectedByDesignBytes(String operation) {
        return (long) byDesignPerCell.getOrDefault(operation, 0) * cells;
    }

    /**
     * "value 1,000 B" and the like; "none" for a zero-copy feature; "none avoidable; by design
     * retained-key 10 B" for one that copies only by design.
     */
    String perCell() {
        String per = unit.isEmpty() ? "" : " per " + unit;
        if (onlyByDesign()) {
            return "none avoidable; by design " + amounts(byDesignPerCell) + per;
        }
        if (!copying()) {
            return "none";
        }
        return amounts(bytesPerCell) + per;
    }

    private static String amounts(Map<String, Integer> bytes) {
        return bytes.entrySet().stream()
                .map(e -> String.format("%s %,d B", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return name;
    }
}
