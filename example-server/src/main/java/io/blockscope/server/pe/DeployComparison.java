package io.blockscope.server.pe;

import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 *
 * <p>This class runs; {@link TickMeter} and {@link ProcessMemory} measure, {@link DeployFigures}
 * turns the measurements into figures, and {@link DeployTable} reports them on the console.
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

    /**
     * The charts are named after the JSON file: {@code deploys-2026-11-25.json} (or {@code .json.gz}) gives
     * {@code deploys-2026-11-25-*.png}.
     */
    static String chartPrefix(Path json) {
        String name = json.getFileName().toString();
        for (String suffix : new String[] {".json.gz", ".json"}) {
            if (name.endsWith(suffix)) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
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
                progress.println(DeployTable.plan(l));
            }
            progress.emit(out, DeployTable.header());
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
                progress.emit(out, DeployTable.line(label(deploy), r));
                if (r.firstError() != null) {
                    progress.emit(out, DeployTable.failures(r));
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
        DeployFigures.Totals totals = new DeployFigures.Totals();
        if (!settings.warmup().isZero()) {
            progress.phase("warming up " + where);
            totals.errors(evaluation.runSlice(
                    target, shape, settings.threads(), settings.warmup().toNanos(), 0, false));
        }
        TickMeter meter = new TickMeter(target, allocation);
        double t = t0;
        List<Figures> samples = new ArrayList<>();
        int ticks = settings.ticks();
        for (int i = 0; i < ticks; i++) {
            progress.phase(String.format("%s tick %d/%d", where, i + 1, ticks));
            Slice slice = evaluation.runSlice(
                    target, shape, settings.threads(), settings.tick().toNanos(), 0, false);
            boolean last = i == ticks - 1;
            boolean live = settings.liveEvery() > 0 && (i + 1) % settings.liveEvery() == 0;
            TickMeter.Tick tick = meter.read(slice, last || live);
            t += slice.elapsedNanos / 1e9;
            Figures figures = tick.figures(t, slice.latencies);
            totals.add(tick);
            totals.errors(slice);
            if (live) {
                progress.phase(where + " full collection (--live-every)");
                java.util.Optional<LiveMemory.Reading> reading = LiveMemory.measure();
                if (reading.isPresent()) {
                    figures = figures.withLive(reading.get());
                } else {
                    warnNoFullCollection();
                }
                // the collection's pause and allocation belong to no tick: the next tick starts after it
                meter.skipCollection();
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

    private boolean warnedNoFullCollection;

    private void warnNoFullCollection() {
        if (!warnedNoFullCollection) {
            warnedNoFullCollection = true;
            System.err.println("[pe] WARNING: --live-every: System.gc() ran no collection (is -XX:+DisableExplicitGC "
                    + "set?); the live heap and direct figures are left out");
        }
    }
}
