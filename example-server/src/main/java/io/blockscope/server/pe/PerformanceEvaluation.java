package io.blockscope.server.pe;

import io.blockscope.server.jvm.ProcessCpu;
import io.blockscope.server.jvm.ThreadAllocation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Runs the PE workloads against several configurations in one invocation and measures each step:
 * throughput, latency percentiles, GC pauses and allocation.
 *
 * <p>Configurations and thread counts are interleaved: each step's time is cut into rounds, and
 * each round runs every (thread count, configuration) pair once, alternating the order (A B, B A,
 * ...). On a shared machine whose speed drifts, every configuration and every thread count sees the
 * same drift, so both the gains and the scaling across threads stay honest.
 */
public final class PerformanceEvaluation {

    private final PeSettings settings;
    private final List<ReadTarget> targets;
    private final ProgressLine progress;
    private final ThreadAllocation allocation;
    private long sliceCounter;

    PerformanceEvaluation(PeSettings settings, List<ReadTarget> targets, ProgressLine progress) {
        this(settings, targets, progress, ThreadAllocation.platform());
    }

    /** With {@code allocation} counting the workers' heap bytes (a test passes an unsupported one). */
    PerformanceEvaluation(
            PeSettings settings, List<ReadTarget> targets, ProgressLine progress, ThreadAllocation allocation) {
        this.allocation = allocation;
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("nothing to measure: no configuration");
        }
        this.settings = settings;
        this.targets = List.copyOf(targets);
        this.progress = progress;
    }

    /** Runs everything; steps are reported to {@code onStep} as they finish. */
    List<StepMeasurement> run(java.util.function.Consumer<List<StepMeasurement>> onStep) throws Exception {
        progress.estimatedTotal(estimatedNanos());
        for (ReadTarget target : targets) {
            progress.phase("loading the table into the cache of " + target.label());
            progress.println("[pe] " + target.label() + ": " + target.loadIntoCache());
        }
        List<StepMeasurement> all = new ArrayList<>();
        for (Workload workload : settings.workloads()) {
            WorkloadShape shape = settings.shape(workload);
            warmUp(shape);
            for (List<StepMeasurement> step : measureWorkload(shape)) {
                all.addAll(step);
                onStep.accept(step);
            }
        }
        return all;
    }

    private void warmUp(WorkloadShape shape) throws Exception {
        if (settings.warmup().isZero()) {
            return;
        }
        int threads = Collections.max(settings.threads());
        for (ReadTarget target : targets) {
            progress.phase("warming up " + shape.workload().label() + " on " + target.label());
            Slice slice = runSlice(target, shape, threads, settings.warmup().toNanos(), 0, true);
            if (slice.errors > 0) {
                throw new IllegalStateException(target.label() + " failed during warm-up: " + slice.firstError);
            }
        }
    }

    /**
     * Measures every (thread count, configuration) step of one workload, all interleaved: each round
     * visits every step once, and odd rounds go backwards (thread counts descending, configurations
     * reversed). Over two rounds each step sits symmetrically in time, so a linear drift of the
     * machine cancels out of the comparisons between configurations and between thread counts.
     *
     * @return one list per thread count (in {@code --threads} order), baseline configuration first
     */
    private List<List<StepMeasurement>> measureWorkload(WorkloadShape shape) throws Exception {
        List<Integer> threadCounts = settings.threads();
        List<List<StepMeasurement>> steps = new ArrayList<>();
        for (int threads : threadCounts) {
            List<StepMeasurement> step = new ArrayList<>();
            for (ReadTarget target : targets) {
                step.add(new StepMeasurement(shape.workload(), target, threads));
            }
            steps.add(step);
        }
        int rounds = settings.rounds();
        long nanos = settings.duration() == null ? 0 : settings.duration().toNanos() / rounds;
        for (int round = 0; round < rounds; round++) {
            long ops = settings.ops() <= 0 ? 0 : share(settings.ops(), rounds, round);
            for (int s : inRoundOrder(threadCounts.size(), round)) {
                int threads = threadCounts.get(s);
                for (int t : inRoundOrder(targets.size(), round)) {
                    ReadTarget target = targets.get(t);
                    progress.phase(String.format(
                            "%s %s threads=%d round %d/%d",
                            shape.workload().label(), target.label(), threads, round + 1, rounds));
                    Slice slice = runSlice(target, shape, threads, nanos, ops, true);
                    StepMeasurement m = steps.get(s).get(t);
                    m.addSlice(
                            slice.ops,
                            slice.rowsRead,
                            slice.rowsReturned,
                            slice.elapsedNanos,
                            slice.latencies,
                            slice.cost,
                            slice.workerAllocatedBytes);
                    m.addProcessCpu(slice.processCpuNanos);
                    if (slice.errors > 0) {
                        m.addErrors(slice.errors, slice.firstError);
                    }
                }
            }
        }
        return steps;
    }

    /** Indexes {@code 0..n-1}, reversed in odd rounds. */
    private static List<Integer> inRoundOrder(int n, int round) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        if (round % 2 == 1) {
            Collections.reverse(order);
        }
        return order;
    }

    /** The {@code index}-th of {@code parts} near-equal shares of {@code total}. */
    static long share(long total, int parts, int index) {
        return total / parts + (index < total % parts ? 1 : 0);
    }

    private long estimatedNanos() {
        long perStep = settings.duration() != null ? settings.duration().toNanos() : 0;
        long steps = (long) settings.workloads().size() * settings.threads().size() * targets.size();
        long warmups = (long) settings.workloads().size()
                * targets.size()
                * settings.warmup().toNanos();
        return steps * perStep + warmups;
    }

    /** What one slice measured. */
    static final class Slice {
        long ops;
        long rowsRead;
        long rowsReturned;
        long elapsedNanos;
        long workerAllocatedBytes;
        long processCpuNanos;
        /** CPU time of the worker threads alone (no GC, JIT or other threads), or -1 when unknown. */
        long workerCpuNanos;

        Histogram latencies;
        CostSnapshot cost;
        long errors;
        String firstError;
    }

    /**
     * Runs {@code threads} workers on {@code target} for {@code nanos} (or {@code ops} operations in
     * all) and measures them. Everything the measurement needs is allocated before the start signal,
     * so the workers' allocation counters see the reads' cost alone.
     *
     * @param settleGc read the slice's end GC settled (about a second later); a caller that chains
     *     its own GC readings across back-to-back slices passes false and ignores the slice's GC
     */
    Slice runSlice(ReadTarget target, WorkloadShape shape, int threads, long nanos, long ops, boolean settleGc)
            throws Exception {
        long sliceId = ++sliceCounter;
        Worker[] workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            long quota = ops > 0 ? share(ops, threads, i) : 0;
            workers[i] = new Worker(
                    target.newSession(shape, settings.seed() + sliceId * 1_000_003L + i),
                    quota,
                    progress.ops(),
                    allocation);
        }
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        Thread[] running = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            Worker worker = workers[i];
            running[i] = new Thread(() -> worker.run(ready, start), "pe-worker-" + i);
            running[i].start();
        }
        ready.await();
        CostSnapshot before = target.cost(false);
        long startNanos = System.nanoTime();
        long end = nanos > 0 ? startNanos + nanos : Long.MAX_VALUE;
        for (Worker worker : workers) {
            worker.endNanos = end;
        }
        long cpuAtStart = ProcessCpu.nanos();
        start.countDown();
        for (Thread t : running) {
            t.join();
        }
        long elapsed = System.nanoTime() - startNanos;
        long cpuAtEnd = ProcessCpu.nanos();
        CostSnapshot after = target.cost(settleGc);

        Slice slice = new Slice();
        slice.elapsedNanos = elapsed;
        slice.processCpuNanos = cpuAtStart < 0 || cpuAtEnd < 0 ? ProcessCpu.UNKNOWN : cpuAtEnd - cpuAtStart;
        slice.cost = after.minus(before);
        slice.latencies = StepMeasurement.newHistogram();
        for (Worker w : workers) {
            slice.workerCpuNanos = slice.workerCpuNanos < 0 || w.cpuNanos < 0 ? -1 : slice.workerCpuNanos + w.cpuNanos;
            slice.ops += w.ops;
            slice.rowsRead += w.rowsRead;
            slice.rowsReturned += w.session.rowsReturned();
            slice.latencies.add(w.latencies);
            // one worker that could not count makes the slice's figure unknown, not smaller
            slice.workerAllocatedBytes = slice.workerAllocatedBytes < 0 || w.allocatedBytes < 0
                    ? ThreadAllocation.UNKNOWN
                    : slice.workerAllocatedBytes + w.allocatedBytes;
            if (w.error != null) {
                slice.errors++;
                if (slice.firstError == null) {
                    slice.firstError = w.error.toString();
                }
            }
        }
        return slice;
    }

    /** One measuring thread: runs operations until its deadline or quota; allocates nothing in the loop. */
    private static final class Worker {
        final Session session;
        final long quota;
        final LongAdder progressOps;
        final ThreadAllocation allocation;
        final Histogram latencies = StepMeasurement.newHistogram();
        volatile long endNanos;
        long ops;
        long rowsRead;
        long allocatedBytes;
        long cpuNanos;
        Exception error;

        Worker(Session session, long quota, LongAdder progressOps, ThreadAllocation allocation) {
            this.session = session;
            this.allocation = allocation;
            this.quota = quota;
            this.progressOps = progressOps;
        }

        void run(CountDownLatch ready, CountDownLatch start) {
            ready.countDown();
            try {
                start.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long end = endNanos;
            long highest = latencies.getHighestTrackableValue();
            long allocatedAtStart = allocation.ofCurrentThread();
            long cpuAtStart = threadCpu();
            try {
                while (quota == 0 || ops < quota) {
                    long t0 = System.nanoTime();
                    rowsRead += session.execute();
                    long t1 = System.nanoTime();
                    latencies.recordValue(Math.min(t1 - t0, highest));
                    ops++;
                    progressOps.increment();
                    if (t1 >= end) {
                        break;
                    }
                }
            } catch (Exception e) {
                error = e;
            }
            allocatedBytes = ThreadAllocation.between(allocatedAtStart, allocation.ofCurrentThread());
            long cpuAtEnd = threadCpu();
            cpuNanos = cpuAtStart < 0 || cpuAtEnd < 0 ? -1 : cpuAtEnd - cpuAtStart;
        }

        private static long threadCpu() {
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
        }
    }
}
