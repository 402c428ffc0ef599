package io.blockscope.hbasers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One of HBase's stock features read on a real RegionServer, with the copies of offheap cell bytes
 * onto the heap that HBase's source makes for it: bytes per cell by component (none for a zero-copy
 * feature), over how many cells, where in HBase's code that is decided, which site the agent should
 * name, and what to use instead. As HBase 2.6.4's source has it, unless {@link #on} says how another
 * line's source differs ({@link #at} applies it).
 */
final class HBaseFeature {

    /** The read or write that exercises the feature; returns the cells (or rows) it saw. */
    interface Action {
        int run() throws IOException;
    }

    final String name;
    String decidedIn;
    final Map<String, Integer> bytesPerCell = new LinkedHashMap<>();
    /** Bytes per {@link #over} unit HBase copies by design, by operation: counted apart, not avoidable. */
    final Map<String, Integer> byDesignPerCell = new LinkedHashMap<>();

    int cells;
    /** The agent names each of its copies at a site starting with one of these. */
    final List<String> sitePrefixes = new ArrayList<>();

    String alternative = "";
    /** What {@link #over} counts, when not cells. */
    String unit = "";

    Action action;

    /** How a release line's source differs, by line ("2.4", "2.6.1"). */
    private final Map<String, Consumer<HBaseFeature>> lines = new LinkedHashMap<>();

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

    /** The agent names its copies' sites starting with {@code prefix} (or another given this way). */
    HBaseFeature site(String prefix) {
        sitePrefixes.add(prefix);
        return this;
    }

    /** Whether {@code site} is one of those this feature's copies are named at. */
    boolean namedAt(String site) {
        return sitePrefixes.stream().anyMatch(site::startsWith);
    }

    /** Where HBase decides, for a release whose source differs. */
    HBaseFeature decided(String decidedIn) {
        this.decidedIn = decidedIn;
        return this;
    }

    /** What differs in {@code line}'s source ("2.4" for 2.4.x, "2.6.1" for that release only). */
    HBaseFeature on(String line, Consumer<HBaseFeature> difference) {
        lines.put(line, difference);
        return this;
    }

    /** This feature as {@code release}'s source has it: a copy, with that release's differences applied. */
    HBaseFeature at(String release) {
        HBaseFeature copy = new HBaseFeature(name, decidedIn);
        copy.bytesPerCell.putAll(bytesPerCell);
        copy.byDesignPerCell.putAll(byDesignPerCell);
        copy.cells = cells;
        copy.sitePrefixes.addAll(sitePrefixes);
        copy.alternative = alternative;
        copy.unit = unit;
        copy.action = action;
        lines.forEach((line, difference) -> {
            if (release.equals(line) || release.startsWith(line + ".") || release.startsWith(line + "-")) {
                difference.accept(copy);
            }
        });
        return copy;
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
