package io.blockscope.server.pe;

import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.jvm.LiveMemory;
import io.blockscope.server.jvm.ThreadAllocation;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.pe.DeployRun.DeployResult;
import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;
import io.blockscope.server.pe.PerformanceEvaluation.Slice;
import io.blockscope.server.region.CacheSizing;
import io.blockscope.server.region.Tables;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * The seed's "Comparing BlockCache Deploys": each deploy gets the same heap and the same data
 * cache, and runs every loading back to back in that one cache (a loading reads more of the table
 * than the last, so the cache goes from all hits to mostly misses), with a fixed number of
 * {@code randomRead} clients. Misses read the store files (through the OS page cache).
 *
 * <p>Deploys run one after the other in this JVM, each in a fresh cache, with a full GC between
 * them, so every deploy starts from an empty heap. Within a loading, the time is cut into ticks
 * (the charts' points); GC pauses are read in a chain across ticks, so every pause counts in
 * exactly one tick, and settled at the end of each loading.
 */
public final class DeployComparison {

    /**
     * @param deploys    in run order
     * @param factors    the loadings: data read over cache size, ascending
     * @param cacheBytes the data cache: the whole LruBlockCache for {@code lru}, the L2 for the
     *     combined deploys (the seed's 4 GB in both)
     * @param l1Bytes    the combined deploys' L1 (meta blocks only; the seed's 0.1 x heap)
     * @param measured   measured time per loading
     * @param warmup     unmeasured time at the start of each loading
     * @param tick       one point of the time series
     * @param liveEvery  every this many ticks, a full collection after the tick reads the heap and
     *     direct memory really held (0: never); its pause counts in no tick
     * @param readPath   the L2's read path: zero-copy, or copy (every L2 hit copied onto the heap,
     *     as every HBase L2 hit was before HBASE-11425, when the seed ran)
     */
    public record Settings(
            ReadPathMode readPath,
            List<CacheDeploy> deploys,
            List<Double> factors,
            long cacheBytes,
            long l1Bytes,
            int threads,
            Duration measured,
            Duration warmup,
            Duration tick,
            int liveEvery,
            long seed,
            boolean progress) {

        public Settings {
            deploys = List.copyOf(deploys);
            factors = List.copyOf(factors);
            if (deploys.isEmpty()) {
                throw new IllegalArgumentException("--deploy needs at least one deploy");
            }
            if (threads < 1 || threads > 1024) {
                throw new IllegalArgumentException(
                        "the deploy comparison runs one thread count (1..1024), got " + threads);
            }
            if (tick.toMillis() < 100 || measured.compareTo(tick) < 0) {
                throw new IllegalArgumentException("--tick must be at least 100ms and at most --duration (the time "
                        + "measured per loading); got --tick " + tick + ", --duration " + measured);
            }
            if (liveEvery < 0) {
                throw new IllegalArgumentException(
                        "--live-every counts ticks between full-collection readings (0: none), got " + liveEvery);
            }
        }

        /** Ticks per loading: the measured time in whole ticks, at least one. */
        int ticks() {
            return (int) Math.max(1, measured.toNanos() / tick.toNanos());
        }

        CacheConfig cacheConfig(CacheDeploy deploy) {
            CacheConfig.Builder b = CacheConfig.builder().deploy(deploy).readPathMode(readPath);
            if (deploy == CacheDeploy.LRU) {
                return b.l1Size(cacheBytes).build();
            }
            b.l1Size(l1Bytes);
            if (deploy.hasL2()) {
                b.l2Size(cacheBytes);
            }
            return b.build();
        }
    }

    /**
     * The {@code pe --loadings} command: plans the loadings against the table, runs every deploy,
     * writes the JSON and then draws the charts from that JSON (the charts show exactly the raw
     * file's figures). Returns PE's exit status: 1 if an operation failed or a block reference leaked.
     *
     * @param json   the raw results (required when {@code charts} is given)
     * @param charts directory for the PNGs, or null
     */
    public static int run(
            Settings settings,
            Path dataDirectory,
            String table,
            Path json,
            Path charts,
            PrintStream out,
            PrintStream err)
            throws Exception {
        if (charts != null && json == null) {
            throw new IllegalArgumentException("--charts draws from the raw JSON: give --json FILE too");
        }
        Path tableDir = dataDirectory.resolve(table);
        long rows = TableManifest.read(tableDir).spec().rows();
        CacheSizing.Footprint footprint = Tables.footprint(tableDir);
        List<Loading> loadings = Loading.plan(settings.factors(), settings.cacheBytes(), rows, footprint.dataBytes());
        DeployComparison comparison = new DeployComparison(settings, dataDirectory, table, loadings);
        DeployRun run = comparison.run(out, err);
        int status = comparison.leaks == 0 ? 0 : 1;
        if (comparison.leaks != 0) {
            err.println("[pe] ERROR: " + comparison.leaks
                    + " block references were still outstanding after a deploy: a leak");
        }
        if (run.deploys().stream().flatMap(d -> d.loadings().stream()).anyMatch(l -> l.errors() > 0)) {
            err.println("[pe] ERROR: some operations failed; see the '!' lines above");
            status = 1;
        }
        if (json != null) {
            run.write(json);
            err.println("[pe] wrote " + json);
        }
        if (charts != null) {
            for (Path file : DeployCharts.write(DeployRun.read(json), charts, chartPrefix(json))) {
                err.println("[pe] wrote " + file);
            }
        }
        return status;
    }

    /** {@code pe --charts-from FILE.json --charts DIR}: redraws the charts of a finished run. */
    public static List<Path> charts(Path json, Path directory) throws java.io.IOException {
        return DeployCharts.write(DeployRun.read(json), directory, chartPrefix(json));
    }

    /** The charts are named after the JSON file: {@code deploys-2026-11-25.json} gives {@code deploys-2026-11-25-*.png}. */
    static String chartPrefix(Path json) {
        String name = json.getFileName().toString();
        return name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
    }

    private long leaks;
    private final Settings settings;
    private final Path dataDirectory;
    private final String table;
    private final List<Loading> loadings;
    private final ThreadAllocation allocation = ThreadAllocation.platform();

    DeployComparison(Settings settings, Path dataDirectory, String table, List<Loading> loadings) {
        this.settings = settings;
        this.dataDirectory = dataDirectory;
        this.table = table;
        this.loadings = List.copyOf(loadings);
    }

    /** Runs every deploy; prints a line per loading on {@code out} as it finishes. */
    DeployRun run(PrintStream out, PrintStream err) throws Exception {
        List<DeployResult> results = new ArrayList<>();
        try (ProgressLine progress = new ProgressLine(err, settings.progress())) {
            long perLoading = settings.warmup().toNanos()
                    + (long) settings.ticks() * settings.tick().toNanos();
            progress.estimatedTotal(
                    perLoading * loadings.size() * settings.deploys().size());
            for (Loading l : loadings) {
                progress.println(String.format(
                        "[pe] loading %s: rows 0..%,d (%.1fx the cache, expected hit ratio %.2f)",
                        l.name(), l.rows() - 1, l.factor(), l.expectedHitRatio()));
            }
            progress.emit(out, header());
            for (CacheDeploy deploy : settings.deploys()) {
                results.add(runDeploy(deploy, progress, out));
                System.gc(); // between deploys, unmeasured: the next starts from an empty heap
            }
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("workload", Workload.RANDOM_READ.label());
        s.put("threads", settings.threads());
        s.put("readPath", settings.readPath().label());
        s.put("cacheBytes", settings.cacheBytes());
        s.put("l1Bytes", settings.l1Bytes());
        s.put("factors", settings.factors());
        s.put("measuredSecondsPerLoading", settings.measured().toMillis() / 1000.0);
        s.put("warmupSecondsPerLoading", settings.warmup().toMillis() / 1000.0);
        s.put("tickSeconds", settings.tick().toMillis() / 1000.0);
        s.put("liveEveryTicks", settings.liveEvery());
        s.put("seed", settings.seed());
        s.put("table", table);
        return new DeployRun("blockscope pe deploys", Instant.now().toString(), PeReport.environment(), s, results);
    }

    private DeployResult runDeploy(CacheDeploy deploy, ProgressLine progress, PrintStream out) throws Exception {
        CacheConfig config = settings.cacheConfig(deploy);
        List<LoadingResult> results = new ArrayList<>();
        try (InProcessTarget target = new InProcessTarget(dataDirectory, table, config)) {
            PeSettings pe = new PeSettings(
                    List.of(Workload.RANDOM_READ),
                    List.of(settings.threads()),
                    settings.tick(),
                    0,
                    1,
                    Duration.ZERO,
                    1,
                    1,
                    null,
                    settings.seed(),
                    settings.progress());
            PerformanceEvaluation evaluation = new PerformanceEvaluation(pe, List.of(target), progress, allocation);
            double t = 0;
            for (Loading loading : loadings) {
                LoadingResult r = runLoading(evaluation, target, pe.shape(Workload.RANDOM_READ), loading, t, progress);
                t = r.samples().get(r.samples().size() - 1).t();
                results.add(r);
                progress.emit(out, line(label(deploy), r));
                if (r.firstError() != null) {
                    progress.emit(out, "    ! " + r.errors() + " worker(s) failed: " + r.firstError());
                }
            }
            leaks += target.outstandingBlockReferences();
            return new DeployResult(label(deploy), target.cacheSummary(), results);
        }
    }

    /** The deploy, prefixed {@code copy/} when its L2 hits are copied (the label PE uses too). */
    private String label(CacheDeploy deploy) {
        return deploy.hasL2() && settings.readPath() == ReadPathMode.COPY ? "copy/" + deploy.label() : deploy.label();
    }

    private LoadingResult runLoading(
            PerformanceEvaluation evaluation,
            InProcessTarget target,
            WorkloadShape base,
            Loading loading,
            double t0,
            ProgressLine progress)
            throws Exception {
        WorkloadShape shape = base.withRowLimit(loading.rows());
        String where = target.deploy() + " " + loading.name();
        Totals totals = new Totals();
        if (!settings.warmup().isZero()) {
            progress.phase("warming up " + where);
            totals.errors(evaluation.runSlice(
                    target, shape, settings.threads(), settings.warmup().toNanos(), 0, false));
        }
        // settled: the warm-up's pauses are all counted before the first tick starts
        GcPauses.Reading gc = GcPauses.shared().read(true);
        Counters counters = Counters.of(target);
        long others = allocation.allThreads();
        double t = t0;
        List<Figures> samples = new ArrayList<>();
        int ticks = settings.ticks();
        for (int i = 0; i < ticks; i++) {
            progress.phase(String.format("%s tick %d/%d", where, i + 1, ticks));
            Slice slice = evaluation.runSlice(
                    target, shape, settings.threads(), settings.tick().toNanos(), 0, false);
            boolean last = i == ticks - 1;
            boolean live = settings.liveEvery() > 0 && (i + 1) % settings.liveEvery() == 0;
            // settled before a full collection too, so that the tick holds all of its own pauses
            GcPauses.Reading gcNow = GcPauses.shared().read(last || live);
            Counters countersNow = Counters.of(target);
            long othersNow = allocation.allThreads();
            // workers start after and end before the all-threads readings: add their own counts
            long allocated = slice.workerAllocatedBytes < 0 || others < 0 || othersNow < 0
                    ? -1
                    : slice.workerAllocatedBytes + (othersNow - others);
            Tick tick = new Tick(slice, gcNow.minus(gc), countersNow.minus(counters), allocated);
            t += slice.elapsedNanos / 1e9;
            Figures figures = tick.figures(t, slice.latencies);
            totals.add(tick);
            totals.errors(slice);
            gc = gcNow;
            counters = countersNow;
            others = othersNow;
            if (live) {
                progress.phase(where + " full collection (--live-every)");
                java.util.Optional<LiveMemory.Reading> reading = LiveMemory.measure();
                if (reading.isPresent()) {
                    figures = figures.withLive(reading.get());
                } else {
                    warnNoFullCollection();
                }
                // the collection's pause and allocation belong to no tick: the next tick starts after it
                gc = GcPauses.shared().read(true);
                others = allocation.allThreads();
            }
            samples.add(figures);
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return new LoadingResult(
                loading.name(),
                loading.factor(),
                loading.rows(),
                loading.expectedHitRatio(),
                load,
                totals.errors,
                totals.firstError,
                totals.figures(t),
                samples);
    }

    /** The target's cumulative cache and store file counters. */
    record Counters(long evictedBlocks, long dataRequests, long dataFileReads) {
        static Counters of(InProcessTarget target) {
            return new Counters(target.evictedBlocks(), target.dataRequests(), target.dataFileReads());
        }

        Counters minus(Counters earlier) {
            return new Counters(
                    evictedBlocks - earlier.evictedBlocks,
                    dataRequests - earlier.dataRequests,
                    dataFileReads - earlier.dataFileReads);
        }

        Counters plus(Counters other) {
            return new Counters(
                    evictedBlocks + other.evictedBlocks,
                    dataRequests + other.dataRequests,
                    dataFileReads + other.dataFileReads);
        }
    }

    /** What one tick measured. */
    private record Tick(Slice slice, GcPauses.Reading gc, Counters counters, long allocatedBytes) {
        Figures figures(double t, Histogram latencies) {
            return DeployComparison.figures(
                    t,
                    slice.elapsedNanos,
                    slice.ops,
                    latencies,
                    gc.count(),
                    gc.seconds(),
                    allocatedBytes,
                    slice.processCpuNanos,
                    slice.cost.cacheRequests(),
                    slice.cost.cacheMisses(),
                    counters);
        }
    }

    /** A loading's ticks summed. */
    private static final class Totals {
        final Histogram latencies = StepMeasurement.newHistogram();
        long nanos;
        long ops;
        long gcCount;
        double gcSeconds;
        long allocated;
        long cpu;
        long requests;
        long misses;
        Counters counters = new Counters(0, 0, 0);
        long errors;
        String firstError;

        void add(Tick tick) {
            Slice s = tick.slice();
            latencies.add(s.latencies);
            nanos += s.elapsedNanos;
            ops += s.ops;
            gcCount += tick.gc().count();
            gcSeconds += tick.gc().seconds();
            allocated = allocated < 0 || tick.allocatedBytes() < 0 ? -1 : allocated + tick.allocatedBytes();
            cpu = cpu < 0 || s.processCpuNanos < 0 ? -1 : cpu + s.processCpuNanos;
            requests += s.cost.cacheRequests();
            misses += s.cost.cacheMisses();
            counters = counters.plus(tick.counters());
        }

        void errors(Slice s) {
            errors += s.errors;
            if (firstError == null) {
                firstError = s.firstError;
            }
        }

        Figures figures(double t) {
            return DeployComparison.figures(
                    t, nanos, ops, latencies, gcCount, gcSeconds, allocated, cpu, requests, misses, counters);
        }
    }

    /** The figures of a stretch of {@code nanos}: rates per second of it, memory read now. */
    static Figures figures(
            double t,
            long nanos,
            long ops,
            Histogram latencies,
            long gcCount,
            double gcSeconds,
            long allocatedBytes,
            long cpuNanos,
            long cacheRequests,
            long cacheMisses,
            Counters counters) {
        double seconds = nanos / 1e9;
        double per = seconds > 0 ? 1 / seconds : 0;
        return new Figures(
                round(t, 3),
                round(seconds, 3),
                ops,
                round(ops * per, 1),
                latencies.getTotalCount() == 0 ? 0 : round(latencies.getMean() / 1000.0, 1),
                micros(latencies, 50),
                micros(latencies, 95),
                micros(latencies, 99),
                micros(latencies, 99.9),
                latencies.getTotalCount() == 0 ? 0 : latencies.getMaxValue() / 1000.0,
                gcCount,
                round(gcSeconds, 6),
                round(gcSeconds * per, 6),
                allocatedBytes < 0 ? null : round(allocatedBytes * per, 0),
                cpuNanos < 0 ? null : round(cpuNanos / 1e9 * per, 4),
                cacheRequests == 0 ? null : round(1 - (double) cacheMisses / cacheRequests, 5),
                counters.dataRequests() == 0
                        ? null
                        : round(1 - (double) counters.dataFileReads() / counters.dataRequests(), 5),
                round(counters.dataFileReads() * per, 1),
                counters.evictedBlocks(),
                round(counters.evictedBlocks() * per, 2),
                heapAfterGc(),
                rss(),
                direct(),
                null,
                null);
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /**
     * The whole heap in use right after the latest collection (young or old), from that collection's
     * own record: what stays flat when nothing accumulates. (A pool's own "collection usage" will not
     * do: G1's old generation updates it only at mixed and full collections.) Null when unknown.
     */
    static Long heapAfterGc() {
        java.util.Set<String> heapPools = new java.util.HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        com.sun.management.GcInfo latest = null;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                com.sun.management.GcInfo info = sun.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return null;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : latest.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        return used;
    }

    /** The process's resident set from /proc/self/status, or null off Linux. */
    static Long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    static Long direct() {
        OptionalLong direct = LiveMemory.directBytes();
        return direct.isPresent() ? direct.getAsLong() : null;
    }

    private boolean warnedNoFullCollection;

    private void warnNoFullCollection() {
        if (!warnedNoFullCollection) {
            warnedNoFullCollection = true;
            System.err.println("[pe] WARNING: --live-every: System.gc() ran no collection (is -XX:+DisableExplicitGC "
                    + "set?); the live heap and direct figures are left out");
        }
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
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
}
