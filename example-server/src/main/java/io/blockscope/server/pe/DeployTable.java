package io.blockscope.server.pe;

import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;

/**
 * The deploy comparison's console report: the loadings planned, then a line per (deploy, loading)
 * as it finishes, in fixed-width columns so that a run can be followed and diffed as it goes.
 */
final class DeployTable {

    private DeployTable() {}

    /** What a loading reads, printed before the runs start. */
    static String plan(Loading l) {
        return String.format(
                "[pe] loading %s: rows 0..%,d (%.1fx the cache, expected hit ratio %.2f)",
                l.name(), l.rows() - 1, l.factor(), l.expectedHitRatio());
    }

    static String header() {
        return String.format(
                "%-12s %-14s %9s %9s %9s %9s %9s %5s %8s %10s %6s %8s %9s",
                "deploy",
                "loading",
                "ops/s",
                "p50 us",
                "p95 us",
                "p99 us",
                "p99.9 us",
                "gc#",
                "gc ms/s",
                "alloc MB/s",
                "cpu",
                "data hit",
                "evict/s");
    }

    static String line(String deploy, LoadingResult r) {
        Figures f = r.totals();
        return String.format(
                "%-12s %-14s %9.0f %9.1f %9.1f %9.1f %9.1f %5d %8.3f %10s %6s %8s %9.1f",
                deploy,
                r.name(),
                f.opsPerSec(),
                f.p50Micros(),
                f.p95Micros(),
                f.p99Micros(),
                f.p999Micros(),
                f.gcPauseCount(),
                f.gcPauseSecondsPerSecond() * 1000,
                f.allocBytesPerSec() == null ? "n/a" : String.format("%.1f", f.allocBytesPerSec() / 1e6),
                f.cpuCores() == null ? "n/a" : String.format("%.2f", f.cpuCores()),
                f.dataHitRatio() == null ? "n/a" : String.format("%.3f", f.dataHitRatio()),
                f.evictedBlocksPerSec());
    }

    /** The line under a loading whose workers failed: how many, and the first error. */
    static String failures(LoadingResult r) {
        return "    ! " + r.errors() + " worker(s) failed: " + r.firstError();
    }
}
