package io.blockscope.server.pe;

import io.blockscope.server.filter.FilterSpec;

/**
 * A workload with its sizes: rows per multi-get, rows per range scan, the scan filter, and how many
 * of the table's rows the random choices range over.
 *
 * @param filter   the filter spec text for scans (validated when targets are built)
 * @param rowLimit gets and scans pick rows among {@code 0..rowLimit-1} (a loading of the deploy
 *     comparison); 0: the whole table
 */
record WorkloadShape(Workload workload, int multiGetRows, int scanRows, String filter, long rowLimit) {

    WorkloadShape(Workload workload, int multiGetRows, int scanRows, String filter) {
        this(workload, multiGetRows, scanRows, filter, 0);
    }

    WorkloadShape {
        if (rowLimit < 0) {
            throw new IllegalArgumentException("the row limit must be 0 (whole table) or positive, got " + rowLimit);
        }
        if (multiGetRows < 1) {
            throw new IllegalArgumentException("--multiget-rows must be at least 1, got " + multiGetRows);
        }
        if (scanRows < 1) {
            throw new IllegalArgumentException("--scan-rows must be at least 1, got " + scanRows);
        }
    }

    FilterSpec filterSpec() {
        return FilterSpec.parse(filter, WorkloadShape.class.getClassLoader());
    }

    /** The same workload over the first {@code rows} rows only. */
    WorkloadShape withRowLimit(long rows) {
        return new WorkloadShape(workload, multiGetRows, scanRows, filter, rows);
    }

    /** Rows the random choices range over in a table of {@code tableRows}. */
    long rowsOf(long tableRows) {
        return rowLimit == 0 ? tableRows : Math.min(rowLimit, tableRows);
    }

    /** Rows each operation asks for. */
    int rowsPerOp() {
        return switch (workload) {
            case MULTIGET -> multiGetRows;
            case RANDOM_READ -> 1;
            case SCAN_RANGE, SCAN_10PCT -> scanRows;
        };
    }
}
