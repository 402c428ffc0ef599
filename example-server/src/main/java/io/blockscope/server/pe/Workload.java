package io.blockscope.server.pe;

import java.util.ArrayList;
import java.util.List;

/** The PE workloads: the experiments of the seed's part 2, plus single random gets. */
public enum Workload {
    /** Random 100-row multi-gets (seed test 1). */
    MULTIGET("multiget", "none"),
    /** Random 10,000-row range scans, every row filtered out on the server (seed test 2). */
    SCAN_RANGE("scanRange", "all"),
    /** Random 10,000-row range scans returning about 10% of the rows (seed test 3). */
    SCAN_10PCT("scan10pct", "10pct"),
    /** Random single-row gets. */
    RANDOM_READ("randomRead", "none");

    private final String label;
    private final String defaultFilter;

    Workload(String label, String defaultFilter) {
        this.label = label;
        this.defaultFilter = defaultFilter;
    }

    public String label() {
        return label;
    }

    /** The filter spec the seed experiment used; {@code --filter} replaces it for scans. */
    public String defaultFilter() {
        return defaultFilter;
    }

    public boolean isScan() {
        return this == SCAN_RANGE || this == SCAN_10PCT;
    }

    public static Workload parse(String text) {
        for (Workload w : values()) {
            if (w.label.equalsIgnoreCase(text)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + text + "'; accepted: " + labels());
    }

    public static String labels() {
        List<String> labels = new ArrayList<>();
        for (Workload w : values()) {
            labels.add(w.label);
        }
        return String.join(", ", labels);
    }
}
