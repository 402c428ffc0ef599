package io.blockscope.server.cli;

import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.pe.DeployComparison;
import io.blockscope.server.pe.PeRunner;
import io.blockscope.server.pe.PeSettings;
import io.blockscope.server.pe.ProbeSwitchRun;
import io.blockscope.server.pe.Workload;
import io.blockscope.server.region.CacheSizing;
import io.blockscope.server.region.Tables;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "pe",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {
            "PerformanceEvaluation: reproduces the seed experiments and compares read paths and cache deploys in one run.",
            "In-process (the default) it measures the server-side cost alone, against regions in this JVM over a table "
                    + "of --rows rows it loads itself (or the tables of --data). With --target it measures running servers "
                    + "over RPC.",
            "Configurations are interleaved in every step, so drift of a shared machine cancels out; the first one is the "
                    + "baseline of the gain ratios. Results go to stdout as a table, progress to stderr.",
            "Workloads: multiget (random 100-row gets, seed test 1), scanRange (random 10,000-row scans, all rows filtered "
                    + "out on the server, test 2), scan10pct (the same, returning about 10%% of the rows, test 3), "
                    + "randomRead (single gets).",
            ""
        })
final class PeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--workload",
            paramLabel = "NAME",
            split = ",",
            defaultValue = "multiget",
            converter = Converters.WorkloadName.class,
            description =
                    "multiget, scanRange, scan10pct, randomRead; several run one after the other. Default: ${DEFAULT-VALUE}.")
    List<Workload> workloads;

    @Option(
            names = "--threads",
            paramLabel = "N",
            split = ",",
            defaultValue = "1,2,4,8,16",
            description = "Thread counts, one step each. Default: ${DEFAULT-VALUE}.")
    List<Integer> threads;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            converter = Converters.Time.class,
            description = "Measured time per configuration and step, e.g. 20s. Default: 10s unless --ops is given.")
    Duration duration;

    @Option(
            names = "--ops",
            paramLabel = "N",
            defaultValue = "0",
            description = "Operations per configuration and step, instead of --duration.")
    long ops;

    @Option(
            names = "--read-path",
            paramLabel = "MODE",
            split = ",",
            defaultValue = "copy,zero-copy",
            converter = Converters.ReadPath.class,
            description = "Read-path modes to compare (in-process): copy, zero-copy. Default: ${DEFAULT-VALUE}.")
    List<ReadPathMode> readPaths;

    @Option(
            names = "--deploy",
            paramLabel = "DEPLOY",
            split = ",",
            defaultValue = "cbc-offheap",
            converter = Converters.Deploy.class,
            description = "Cache deploys to compare (in-process): lru, cbc-offheap, cbc-onheap, cbc-file, meta-only. "
                    + "Deploys without an L2 run once, whatever the read paths. Default: ${DEFAULT-VALUE}.")
    List<CacheDeploy> deploys;

    @Option(
            names = "--rows",
            paramLabel = "N",
            defaultValue = "100000",
            description = "Rows of the table auto-loaded when --data is not given. Default: ${DEFAULT-VALUE}.")
    long rows;

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "Use the tables of this data directory (made by load) instead of auto-loading.")
    Path data;

    @Option(
            names = "--target",
            paramLabel = "URL",
            split = ",",
            description =
                    "Measure running servers over RPC instead (e.g. http://127.0.0.1:8080); each URL is one configuration, "
                            + "labelled by its /status. GC and allocation are read from the servers' /status.")
    List<URI> targets;

    @Option(
            names = "--filter",
            paramLabel = "SPEC",
            description =
                    "Scan filter replacing the workload's own (scanRange: all, scan10pct: 10pct): none, all, <N>pct, "
                            + "qualifier:<q>,..., class:<fully.qualified.Name>.")
    String filter;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Write one JSON record per (workload, configuration, threads).")
    Path json;

    @Option(
            names = "--chart",
            paramLabel = "FILE.png",
            description = "Write a PNG chart of throughput against threads per configuration.")
    Path chart;

    @Option(
            names = "--rounds",
            paramLabel = "N",
            defaultValue = "4",
            description =
                    "Interleaved slices per configuration and step (order alternates A B, B A, ...). Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            defaultValue = "3s",
            converter = Converters.Time.class,
            description =
                    "Unmeasured run of each workload on each configuration first (after the whole table is read into the "
                            + "cache). Default: ${DEFAULT-VALUE}.")
    Duration warmup;

    @Option(
            names = "--multiget-rows",
            paramLabel = "N",
            defaultValue = "100",
            description = "Rows per multi-get. Default: ${DEFAULT-VALUE}.")
    int multiGetRows;

    @Option(
            names = "--scan-rows",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Rows per range scan. Default: ${DEFAULT-VALUE}.")
    int scanRows;

    @Option(
            names = "--pe-seed",
            paramLabel = "N",
            defaultValue = "42",
            description = "Seed of the random row choices. Default: ${DEFAULT-VALUE}.")
    long peSeed;

    @Option(
            names = "--l1-size",
            paramLabel = "SIZE|auto",
            defaultValue = "auto",
            converter = Converters.SizeOrAuto.class,
            description =
                    "L1 size of every in-process configuration. auto: 64m, or the whole table for lru. Default: ${DEFAULT-VALUE}.")
    long l1Size;

    @Option(
            names = "--l2-size",
            paramLabel = "SIZE|auto",
            defaultValue = "auto",
            converter = Converters.SizeOrAuto.class,
            description =
                    "L2 size of every in-process configuration. auto: the whole table. All configurations are built at "
                            + "once, so offheap L2s add up against -XX:MaxDirectMemorySize (default: -Xmx). Default: ${DEFAULT-VALUE}.")
    long l2Size;

    @Option(
            names = "--request-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            converter = Converters.Time.class,
            description = "RPC client timeout with --target. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(
            names = "--progress",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Show a progress line on stderr (--no-progress to hide it). Default: ${DEFAULT-VALUE}.")
    boolean progress;

    @Option(names = "--keep-data", description = "Keep the auto-loaded table's directory (printed at the end).")
    boolean keepData;

    @Option(
            names = "--loadings",
            paramLabel = "FACTORS",
            split = ",",
            description =
                    "Run the deploy comparison of the seed's 'Comparing BlockCache Deploys' instead: for each --deploy "
                            + "in turn (same heap, same --cache-size), randomRead by the one --threads count over data of each "
                            + "factor x the cache, loadings back to back; --duration and --warmup apply per loading. The seed's "
                            + "four: 0.5,2,4,16 (all in cache, ~50%%, ~75%%, ~94%% misses). See docs/pe.md.")
    List<Double> loadings;

    @Option(
            names = "--cache-size",
            paramLabel = "SIZE",
            defaultValue = "128m",
            converter = Converters.Size.class,
            description = "With --loadings: the data cache of every deploy (lru: its only cache; cbc-*: the L2). "
                    + "Default: ${DEFAULT-VALUE}.")
    long cacheSize;

    @Option(
            names = "--tick",
            paramLabel = "DURATION",
            defaultValue = "5s",
            converter = Converters.Time.class,
            description = "With --loadings: one point of the charts' time series. Default: ${DEFAULT-VALUE}.")
    Duration tick;

    @Option(
            names = "--live-every",
            paramLabel = "TICKS",
            defaultValue = "0",
            description = "With --loadings: after every TICKS ticks, run a full collection and record the heap and "
                    + "direct memory still in use (what is really held, not garbage waiting for an old-generation "
                    + "collection); its pause counts in no tick. 0 (the default): never.")
    int liveEvery;

    @Option(
            names = "--charts",
            paramLabel = "DIR",
            description = "With --loadings (or --charts-from): write one PNG per figure, five panels across, into DIR, "
                    + "drawn from the JSON.")
    Path charts;

    @Option(
            names = "--agent-switch",
            paramLabel = "PAIRS",
            description = "Measure what the agent's probes cost in one warm JVM: this one, or with --target the server"
                    + " of --agent-pid. Start that JVM with the diagnostics agent jar, which has the probe switch"
                    + " (-javaagent:blockscope-agent-diagnostics.jar=127.0.0.1:0). Windows of --duration alternate with the probes removed and"
                    + " installed (2 x PAIRS + 1 windows, off first and last); prints the CPU per operation on/off, each"
                    + " on window against its two neighbours, as a median with a 95%% bootstrap interval. One --workload,"
                    + " one --threads count, one --read-path and --deploy.")
    Integer agentSwitch;

    @Option(
            names = "--switch-probes",
            paramLabel = "PROBES",
            defaultValue = "all",
            description = "With --agent-switch: what the on windows install: all, or probe names, comma-separated"
                    + " (e.g. block-get,block-return). Default: ${DEFAULT-VALUE}.")
    String switchProbes;

    @Option(
            names = "--switch-settle",
            paramLabel = "DURATION",
            converter = Converters.Time.class,
            description = "With --agent-switch: unmeasured load after every switch, while the JIT recompiles the"
                    + " retransformed code. Default: 3s, or 0s with --switch-mode pause or leak-tracking.")
    @org.jspecify.annotations.Nullable
    Duration switchSettle;

    @Option(
            names = "--switch-mode",
            paramLabel = "MODE",
            defaultValue = "retransform",
            description = "With --agent-switch: retransform (off windows remove the probes: their whole cost, but"
                    + " every switch recompiles) or pause (the probes stay in and off windows pause their recording:"
                    + " no recompilation, so windows can be short and many; the advice's call itself is not in the"
                    + " figure), or leak-tracking (every probe records throughout and only leak tracking is"
                    + " switched: its own cost). Default: ${DEFAULT-VALUE}.")
    String switchMode;

    @Option(
            names = "--agent-pid",
            paramLabel = "PID",
            defaultValue = "0",
            description = "With --agent-switch and --target: the server process (on this machine, same user) whose"
                    + " agent is switched and whose CPU is measured, reached through its local JMX agent.")
    long agentPid;

    @Option(
            names = "--charts-from",
            paramLabel = "FILE.json",
            description = "Only redraw the --charts of a finished deploy comparison from its JSON (or FILE.json.gz).")
    Path chartsFrom;

    @Mixin
    TableOptions table;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Properties file of option defaults (keys are option names without dashes, e.g. threads=2,4,8).")
    Path config;

    @Override
    public Integer call() throws Exception {
        if (chartsFrom != null) {
            if (charts == null) {
                throw new IllegalArgumentException("--charts-from needs --charts DIR (where to write the PNGs)");
            }
            for (Path file : DeployComparison.charts(chartsFrom, charts)) {
                System.err.println("[pe] wrote " + file);
            }
            return 0;
        }
        if (loadings != null) {
            return deployComparison();
        }
        if (agentSwitch != null) {
            return probeSwitch();
        }
        Duration measured = duration == null && ops <= 0 ? Duration.ofSeconds(10) : duration;
        PeSettings settings = new PeSettings(
                workloads, threads, measured, ops, rounds, warmup, multiGetRows, scanRows, filter, peSeed, progress);
        PeRunner.Outputs outputs = new PeRunner.Outputs(json, chart, System.out, System.err);
        if (targets != null) {
            for (String local : List.of("--read-path", "--deploy", "--data", "--rows", "--l1-size", "--l2-size")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(local)) {
                    throw new IllegalArgumentException(
                            local + " applies to in-process runs; with --target each server's own "
                                    + "configuration is measured (start one server per configuration)");
                }
            }
            return PeRunner.remote(settings, targets, tableName(), requestTimeout, outputs);
        }
        return onData(dataDirectory -> {
            CacheSizing.Footprint footprint = Tables.footprint(dataDirectory);
            List<CacheConfig> configs = new ArrayList<>();
            for (CacheDeploy deploy : deploys) {
                List<ReadPathMode> modes = deploy.hasL2() ? readPaths : List.of(ReadPathMode.ZERO_COPY);
                for (ReadPathMode mode : modes) {
                    configs.add(config(deploy, mode, footprint));
                }
            }
            return PeRunner.inProcess(settings, dataDirectory, tableName(), configs, outputs);
        });
    }

    /** {@code --loadings}: the seed's deploy comparison, in this JVM over --data or an auto-loaded table. */
    private int deployComparison() throws Exception {
        if (targets != null || ops > 0 || threads.size() != 1) {
            throw new IllegalArgumentException("--loadings runs in-process, by --duration, with one --threads count "
                    + "(the seed: a fixed number of clients); drop --target/--ops and give e.g. --threads 4");
        }
        long l1 = l1Size > 0 ? l1Size : Math.max(8L << 20, Runtime.getRuntime().maxMemory() / 10);
        boolean readPathGiven = spec.commandLine().getParseResult().hasMatchedOption("--read-path");
        if (readPathGiven && readPaths.size() != 1) {
            throw new IllegalArgumentException(
                    "--loadings runs one --read-path (zero-copy by default, or copy: every L2 "
                            + "hit copied onto the heap, as before HBASE-11425); got " + readPaths.size());
        }
        DeployComparison.Settings settings = new DeployComparison.Settings(
                readPathGiven ? readPaths.get(0) : ReadPathMode.ZERO_COPY,
                deploys,
                loadings,
                cacheSize,
                l1,
                threads.get(0),
                duration == null ? Duration.ofSeconds(40) : duration,
                warmup,
                tick,
                liveEvery,
                peSeed,
                progress);
        return onData(dataDirectory ->
                DeployComparison.run(settings, dataDirectory, table.table, json, charts, System.out, System.err));
    }

    /** {@code --agent-switch}: the agent's cost in one warm JVM, probes switched in and out. */
    private int probeSwitch() throws Exception {
        if (spec.commandLine().getParseResult().hasMatchedOption("--rounds")) {
            throw new IllegalArgumentException("--agent-switch alternates its own windows: drop --rounds");
        }
        if (!List.of("retransform", "pause", "leak-tracking").contains(switchMode)) {
            throw new IllegalArgumentException(
                    "--switch-mode takes retransform, pause or leak-tracking, got '" + switchMode + "'");
        }
        boolean pause = switchMode.equals("pause");
        boolean leakTracking = switchMode.equals("leak-tracking");
        ProbeSwitchRun.Settings switching = new ProbeSwitchRun.Settings(
                agentSwitch,
                switchProbes,
                switchSettle != null ? switchSettle : pause || leakTracking ? Duration.ZERO : Duration.ofSeconds(3),
                agentPid,
                pause,
                leakTracking);
        PeSettings settings = new PeSettings(
                workloads,
                threads,
                duration == null && ops <= 0 ? Duration.ofSeconds(10) : duration,
                ops,
                1,
                warmup,
                multiGetRows,
                scanRows,
                filter,
                peSeed,
                progress);
        PeRunner.Outputs outputs = new PeRunner.Outputs(json, chart, System.out, System.err);
        String command =
                "java " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
                        + " -jar blockscope-example-server.jar "
                        + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        if (targets != null) {
            if (targets.size() != 1) {
                throw new IllegalArgumentException("--agent-switch measures one server: give one --target URL");
            }
            return ProbeSwitchRun.remote(
                    settings, switching, targets.get(0), tableName(), requestTimeout, command, outputs);
        }
        if (readPaths.size() != 1 || deploys.size() != 1) {
            throw new IllegalArgumentException("--agent-switch measures one configuration: give one --read-path"
                    + " (e.g. zero-copy) and one --deploy");
        }
        return onData(dataDirectory -> {
            CacheConfig config = config(deploys.get(0), readPaths.get(0), Tables.footprint(dataDirectory));
            return ProbeSwitchRun.inProcess(settings, switching, dataDirectory, tableName(), config, command, outputs);
        });
    }

    /** What runs over the data directory: --data, or a table of --rows loaded for this run. */
    @FunctionalInterface
    private interface DataWork {
        int run(Path dataDirectory) throws Exception;
    }

    /**
     * Runs {@code work} over --data, or over a table of --rows loaded into a temporary directory
     * that is deleted afterwards (kept with --keep-data).
     */
    private int onData(DataWork work) throws Exception {
        Path temporary = null;
        Path dataDirectory = data;
        try {
            if (dataDirectory == null) {
                temporary = Files.createTempDirectory("blockscope-pe-");
                dataDirectory = temporary;
                table.load(dataDirectory, rows, System.err);
            }
            return work.run(dataDirectory);
        } finally {
            if (temporary != null) {
                if (keepData) {
                    System.err.println("[pe] kept the table in " + temporary);
                } else {
                    TempDirectories.deleteRecursively(temporary);
                }
            }
        }
    }

    /** The table to read: the one named with --table, or the only one served when --table was not given. */
    private String tableName() {
        if (spec.commandLine().getParseResult().hasMatchedOption("--table")) {
            return table.table;
        }
        return targets == null && data == null ? table.table : null;
    }

    private CacheConfig config(CacheDeploy deploy, ReadPathMode mode, CacheSizing.Footprint footprint) {
        CacheConfig.Builder b = CacheConfig.builder()
                .deploy(deploy)
                .readPathMode(mode)
                .l1Size(l1Size > 0 ? l1Size : CacheSizing.l1For(footprint, deploy == CacheDeploy.LRU));
        if (deploy.hasL2()) {
            b.l2Size(l2Size > 0 ? l2Size : CacheSizing.l2For(footprint, BucketAllocator.defaultSlotSizes()));
        }
        return b.build();
    }
}
