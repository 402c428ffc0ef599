package io.blockscope.server.pe;

import io.blockscope.server.filter.FilterSpec;

/**
 * A workload with its sizes: rows per multi-get, rows per range scan, and the scan filter.
 *
 * @param filter the filter spec text for scans (validated when targets are built)
 */
record WorkloadShape(Workload workload, int multiGetRows, int scanRows, String filter) {

    WorkloadShape {
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

    /** Rows each operation asks for. */
    int rowsPerOp() {
        return switch (workload) {
            case MULTIGET -> multiGetRows;
            case RANDOM_READ -> 1;
            case SCAN_RANGE, SCAN_10PCT -> scanRows;
        };
    }
}
