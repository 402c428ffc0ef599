package io.blockscope.server.pe;

import java.time.Duration;
import java.util.List;

/**
 * How a PE run measures.
 *
 * @param workloads     workloads, run one after the other
 * @param threads       thread counts, one step each
 * @param duration      measured time per (configuration, step), or null when {@code ops} is given
 * @param ops           operations per (configuration, step), or 0 when {@code duration} is given
 * @param rounds        each step is cut into this many slices per configuration, interleaved
 *                      A B, B A, A B ... so drift of a shared machine cancels out
 * @param warmup        time each configuration runs each workload before measuring (JIT, caches)
 * @param multiGetRows  rows per multi-get (the seed: 100)
 * @param scanRows      rows per range scan (the seed: 10,000)
 * @param filter        filter spec replacing the scan workloads' own, or null
 * @param seed          base seed of the random row choices (runs are repeatable)
 * @param progress      print a progress line on stderr
 */
public record PeSettings(
        List<Workload> workloads,
        List<Integer> threads,
        Duration duration,
        long ops,
        int rounds,
        Duration warmup,
        int multiGetRows,
        int scanRows,
        String filter,
        long seed,
        boolean progress) {

    public PeSettings {
        workloads = List.copyOf(workloads);
        threads = List.copyOf(threads);
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("--workload needs at least one of " + Workload.labels());
        }
        if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1 || t > 1024)) {
            throw new IllegalArgumentException(
                    "--threads must list counts of 1..1024, e.g. 1,2,4,8,16; got " + threads);
        }
        if ((duration == null) == (ops <= 0)) {
            throw new IllegalArgumentException("give exactly one of --duration (e.g. 20s) or --ops (e.g. 10000)");
        }
        if (duration != null && duration.toMillis() < 100) {
            throw new IllegalArgumentException("--duration must be at least 100ms, got " + duration);
        }
        if (rounds < 1 || rounds > 100) {
            throw new IllegalArgumentException("--rounds must be 1..100, got " + rounds);
        }
        if (ops > 0
                && ops
                        < (long) rounds
                                * threads.stream()
                                        .mapToInt(Integer::intValue)
                                        .max()
                                        .orElse(1)) {
            throw new IllegalArgumentException(
                    "--ops " + ops + " is too small to give every thread of every round at least one "
                            + "operation; use at least --rounds x the largest thread count");
        }
        if (filter != null) {
            for (Workload w : workloads) {
                if (!w.isScan()) {
                    throw new IllegalArgumentException(
                            "--filter applies to the scan workloads (scanRange, scan10pct), not to " + w.label());
                }
            }
        }
    }

    WorkloadShape shape(Workload workload) {
        return new WorkloadShape(workload, multiGetRows, scanRows, filter != null ? filter : workload.defaultFilter());
    }
}
