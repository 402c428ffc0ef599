package io.blockscope.server.pe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.blockscope.server.cache.CacheConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pe --agent-switch PAIRS}: what the agent's probes cost, measured in one warm JVM instead of
 * fresh ones. Fresh JVMs running identical code differ by tens of per cent in CPU per operation (JIT
 * decisions, code and heap layout), which buries a 1% cost; here the JVM, its heap and its table
 * stay fixed and only the probes change. The run alternates windows with the probes removed and
 * installed (off, on, off, ..., off: 2 x PAIRS + 1 windows) through the probe switch of the
 * diagnostics agent jar (blockscope-agent-diagnostics.jar: the production agent plus the switch), which
 * retransforms the probe targets each time; every window first runs the workload unmeasured for
 * {@code settle} so the JIT recompiles the retransformed code, then measures the process's CPU time
 * per operation. Each on window is compared with the mean of the off windows on either side, so a
 * linear drift of the machine cancels; the figure is the median of those ratios with a 95%
 * percentile-bootstrap interval, and the throughput ratio is the second figure.
 */
public final class ProbeSwitchRun {

    private static final int RESAMPLES = 10_000;
    private static final double LEVEL = 0.95;

    /**
     * @param pairs    on windows (each between two off windows)
     * @param probes   what "on" installs: {@code all} or probe names (the off windows install none)
     * @param settle   unmeasured load after each switch, for the JIT to recompile
     * @param agentPid the server whose agent is switched and whose CPU is measured (RPC); 0: this JVM
     * @param pause    off windows pause the installed probes' recording instead of removing them:
     *                 no retransformation, no recompilation, so windows can be short and many
     * @param leakTracking every window records with the probes {@code probes} names, and only leak
     *                 tracking is switched: off in the off windows, on in the on windows (no
     *                 retransformation): the figure is leak tracking's own cost
     */
    public record Settings(
            int pairs, String probes, Duration settle, long agentPid, boolean pause, boolean leakTracking) {
        public Settings {
            if (pairs < 2 || pairs > 1000) {
                throw new IllegalArgumentException("--agent-switch takes 2..1000 pairs of windows, got " + pairs);
            }
            if (probes.isBlank() || probes.trim().equals("none")) {
                throw new IllegalArgumentException(
                        "--switch-probes names what the on windows install: all, or probe names such as block-get");
            }
            if (settle.isNegative()) {
                throw new IllegalArgumentException("--switch-settle must not be negative, got " + settle);
            }
            if (pause && leakTracking) {
                throw new IllegalArgumentException("--switch-mode is pause or leak-tracking, not both");
            }
        }

        /** Probes switched in and out (retransform) or paused. */
        public Settings(int pairs, String probes, Duration settle, long agentPid, boolean pause) {
            this(pairs, probes, settle, agentPid, pause, false);
        }
    }

    /** One measured window. */
    record Window(
            int index,
            boolean installed,
            String probes,
            long ops,
            long elapsedNanos,
            long cpuNanos,
            long workerCpuNanos,
            long compilationMillis,
            double gcPauseSeconds,
            double switchMillis,
            double loadAverage) {

        double cpuNanosPerOp() {
            return (double) cpuNanos / ops;
        }

        /** CPU of the reading threads alone per operation; NaN when unknown (over RPC). */
        double workerCpuNanosPerOp() {
            return workerCpuNanos < 0 ? Double.NaN : (double) workerCpuNanos / ops;
        }

        double opsPerSec() {
            return ops / (elapsedNanos / 1e9);
        }
    }

    private ProbeSwitchRun() {}

    /** In this JVM, which must run the diagnostics agent jar (the one with the probe switch). */
    public static int inProcess(
            PeSettings pe,
            Settings settings,
            Path dataDirectory,
            String table,
            CacheConfig config,
            String command,
            PeRunner.Outputs outputs)
            throws Exception {
        if (settings.agentPid() != 0) {
            throw new IllegalArgumentException(
                    "--agent-pid names a server measured over RPC: give --target too, or drop it to measure this JVM");
        }
        try (MeasuredJvm jvm = MeasuredJvm.self();
                ReadTarget target = new InProcessTarget(dataDirectory, table, config)) {
            return run(pe, settings, target, jvm, command, outputs);
        }
    }

    /** Against a server over RPC; the server (process {@code settings.agentPid()}) runs the agent. */
    public static int remote(
            PeSettings pe,
            Settings settings,
            URI url,
            String table,
            Duration timeout,
            String command,
            PeRunner.Outputs outputs)
            throws Exception {
        if (settings.agentPid() == 0) {
            throw new IllegalArgumentException("--agent-switch with --target needs --agent-pid PID: the server process"
                    + " whose agent is switched and whose CPU is measured");
        }
        try (MeasuredJvm jvm = MeasuredJvm.attach(settings.agentPid());
                ReadTarget target = new RpcTarget(url, table, timeout)) {
            return run(pe, settings, target, jvm, command, outputs);
        }
    }

    static int run(
            PeSettings pe,
            Settings settings,
            ReadTarget target,
            MeasuredJvm jvm,
            String command,
            PeRunner.Outputs outputs)
            throws Exception {
        if (pe.workloads().size() != 1 || pe.threads().size() != 1 || pe.duration() == null || pe.rounds() != 1) {
            throw new IllegalArgumentException("--agent-switch measures one --workload at one --threads count by"
                    + " --duration (each window's length), and alternates its own windows: drop --ops and --rounds");
        }
        if (settings.leakTracking()) {
            jvm.leakTracking(true); // refused here, before anything runs, when the agent has none
        }
        String all = jvm.allProbes();
        String previous = jvm.installed();
        String initial = jvm.install(settings.probes()); // checks the names before anything runs
        String offLabel = settings.leakTracking() ? initial : settings.pause() ? "paused" : "none";
        String onLabel = settings.leakTracking() ? initial + " + leak tracking" : initial;
        WorkloadShape shape = pe.shape(pe.workloads().get(0));
        int threads = pe.threads().get(0);
        boolean self = target.url() == null;
        List<Window> windows = new ArrayList<>();
        try (ProgressLine progress = new ProgressLine(outputs.err(), pe.progress())) {
            PerformanceEvaluation evaluation = new PerformanceEvaluation(pe, List.of(target), progress);
            progress.println("[pe] " + target.label() + ": " + target.loadIntoCache());
            progress.println("[pe] agent-switch: " + jvm.description() + ", probes " + all + "; on windows install "
                    + initial
                    + (settings.leakTracking()
                            ? " recording throughout, leak tracking on in the on windows and off in the off windows; "
                            : settings.pause() ? ", off windows pause their recording; " : ", off windows none; ")
                    + (2 * settings.pairs() + 1) + " windows of " + pe.duration()
                    + ", each after " + settings.settle() + " of unmeasured load");
            if (!pe.warmup().isZero()) {
                progress.phase("warming up with the probes installed");
                evaluation.runSlice(target, shape, threads, pe.warmup().toNanos(), 0, false);
            }
            for (int i = 0; i < 2 * settings.pairs() + 1; i++) {
                boolean installed = i % 2 == 1;
                long switchStart = System.nanoTime();
                String probes;
                if (settings.leakTracking()) {
                    jvm.leakTracking(installed);
                    probes = installed ? onLabel : offLabel;
                } else if (settings.pause()) {
                    jvm.pause(!installed);
                    probes = installed ? initial : offLabel;
                } else {
                    probes = jvm.install(installed ? initial : offLabel);
                }
                double switchMillis = (System.nanoTime() - switchStart) / 1e6;
                progress.phase("window " + (i + 1) + "/" + (2 * settings.pairs() + 1) + " probes " + probes);
                if (!settings.settle().isZero()) {
                    evaluation.runSlice(
                            target, shape, threads, settings.settle().toNanos(), 0, false);
                }
                long cpuBefore = self ? 0 : jvm.cpuNanos();
                long compiledBefore = jvm.compilationMillis();
                PerformanceEvaluation.Slice slice = evaluation.runSlice(
                        target, shape, threads, pe.duration().toNanos(), 0, false);
                long cpu = self ? slice.processCpuNanos : jvm.cpuNanos() - cpuBefore;
                long compiled = compiledBefore < 0 ? -1 : jvm.compilationMillis() - compiledBefore;
                if (slice.errors > 0) {
                    throw new IllegalStateException("window " + (i + 1) + " failed: " + slice.firstError);
                }
                if (slice.ops == 0 || cpu < 0) {
                    throw new IllegalStateException("window " + (i + 1) + " measured " + slice.ops
                            + " operations and CPU " + cpu + " ns: nothing to compare");
                }
                Window w = new Window(
                        i,
                        installed,
                        probes,
                        slice.ops,
                        slice.elapsedNanos,
                        cpu,
                        self ? slice.workerCpuNanos : -1,
                        compiled,
                        slice.cost.gc().seconds(),
                        switchMillis,
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                windows.add(w);
                progress.println(String.format(
                        "[pe] window %d/%d probes %s: CPU %.1f us/op (workers %.1f), %.0f ops/s, JIT %d ms, switch %.0f ms",
                        i + 1,
                        2 * settings.pairs() + 1,
                        probes,
                        w.cpuNanosPerOp() / 1e3,
                        w.workerCpuNanosPerOp() / 1e3,
                        w.opsPerSec(),
                        compiled,
                        switchMillis));
            }
        } finally {
            if (settings.pause()) {
                jvm.pause(false);
            }
            if (settings.leakTracking()) {
                jvm.leakTracking(true);
            }
            jvm.install(previous); // the JVM is left with the probes it had
        }
        Map<String, Object> report = report(settings, windows, target, jvm, command);
        outputs.out().println(report.get("summary"));
        if (outputs.json() != null) {
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(outputs.json().toFile(), report);
            outputs.err().println("[pe] wrote " + outputs.json());
        }
        return 0;
    }

    /** On window {@code 2i+1} against the mean of off windows {@code 2i} and {@code 2i+2}. */
    static double[][] pairRatios(List<Window> windows) {
        int pairs = (windows.size() - 1) / 2;
        double[] cpu = new double[pairs];
        double[] throughput = new double[pairs];
        double[] workerCpu = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            Window before = windows.get(2 * i);
            Window on = windows.get(2 * i + 1);
            Window after = windows.get(2 * i + 2);
            cpu[i] = on.cpuNanosPerOp() / ((before.cpuNanosPerOp() + after.cpuNanosPerOp()) / 2);
            throughput[i] = on.opsPerSec() / ((before.opsPerSec() + after.opsPerSec()) / 2);
            workerCpu[i] =
                    on.workerCpuNanosPerOp() / ((before.workerCpuNanosPerOp() + after.workerCpuNanosPerOp()) / 2);
        }
        return new double[][] {cpu, throughput, workerCpu};
    }

    private static Map<String, Object> report(
            Settings settings, List<Window> windows, ReadTarget target, MeasuredJvm jvm, String command)
            throws Exception {
        double[][] ratios = pairRatios(windows);
        Bootstrap.Interval cpu = Bootstrap.medianInterval(ratios[0], RESAMPLES, LEVEL, 20L);
        Bootstrap.Interval ops = Bootstrap.medianInterval(ratios[1], RESAMPLES, LEVEL, 20L);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope pe --agent-switch");
        report.put("date", Instant.now().toString());
        report.put("jdk", Runtime.version().toString());
        report.put("machine", machine());
        report.put("command", command);
        report.put("pairs", settings.pairs());
        report.put(
                "measured",
                (target.url() == null
                                ? "in-process PE: CPU of this process (reads, GC, JIT, agent) per operation"
                                : "RPC server (" + jvm.description() + "): CPU of the server process per operation of"
                                        + " this PE client")
                        + (settings.leakTracking()
                                ? ", one warm JVM, probes installed and recording throughout, leak tracking on in the"
                                        + " on windows and off in the off windows, windows of measured load after "
                                : settings.pause()
                                        ? ", one warm JVM, probes installed throughout and their recording paused in the off"
                                                + " windows (no retransformation), windows of measured load after "
                                        : ", one warm JVM, probes switched by retransformation, windows of measured load after ")
                        + settings.settle() + " of unmeasured load each; on window vs the mean of its neighbours");
        report.put("probes", windows.get(1).probes());
        report.put("agentSwitches", jvm.switches());
        report.put("cpuPerOpRatio", interval(cpu));
        report.put("throughputRatio", interval(ops));
        if (!Double.isNaN(ratios[2][0])) {
            // a second view: the reading threads only, without the GC's and the JIT's threads
            report.put("workerCpuPerOpRatio", interval(Bootstrap.medianInterval(ratios[2], RESAMPLES, LEVEL, 20L)));
        }
        report.put("extraCpuPerOpPercent", interval(cpu.asPercentChange()));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Window w : windows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("agent", w.installed());
            m.put("probes", w.probes());
            m.put("window", w.index());
            m.put("cpuNanosPerOp", w.cpuNanosPerOp());
            m.put("workerCpuNanosPerOp", w.workerCpuNanosPerOp());
            m.put("opsPerSec", w.opsPerSec());
            m.put("ops", w.ops());
            m.put("gcPauseSeconds", w.gcPauseSeconds());
            m.put("compilationMillis", w.compilationMillis());
            m.put("switchMillis", w.switchMillis());
            m.put("loadAverage", w.loadAverage());
            runs.add(m);
        }
        report.put("runs", runs);
        report.put("pairCpuRatios", ratios[0]);
        report.put("summary", summary("[pe] agent-switch", settings.pairs(), cpu, ops));
        return report;
    }

    /** The one-line verdict of an overhead run: CPU per op on/off and throughput on/off, with intervals. */
    public static String summary(String tool, int pairs, Bootstrap.Interval cpu, Bootstrap.Interval ops) {
        return summary(tool, pairs, cpu, ops, "on/off");
    }

    /** The summary line with the ratios named {@code ratio} ("B/A" where both sides run an agent). */
    public static String summary(String tool, int pairs, Bootstrap.Interval cpu, Bootstrap.Interval ops, String ratio) {
        Bootstrap.Interval extra = cpu.asPercentChange();
        return String.format(
                "%s, %d pairs: cpu/op %s median %.4f, 95%% CI [%.4f, %.4f] (extra CPU %+.2f%% [%+.2f%%, %+.2f%%]);"
                        + " ops/s %s median %.4f [%.4f, %.4f]",
                tool,
                pairs,
                ratio,
                cpu.median(),
                cpu.low(),
                cpu.high(),
                extra.median(),
                extra.low(),
                extra.high(),
                ratio,
                ops.median(),
                ops.low(),
                ops.high());
    }

    /** An interval as the raw result files hold it. */
    public static Map<String, Object> interval(Bootstrap.Interval i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", i.median());
        m.put("low", i.low());
        m.put("high", i.high());
        m.put("level", i.level());
        m.put("resamples", i.resamples());
        return m;
    }

    /** "CPU model, N cores, ... (load L at the end)": the machine line of a raw result. */
    public static String machine() {
        String cpu = System.getProperty("os.arch");
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(cpu);
        } catch (IOException e) {
            // not Linux: the architecture will do
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores, shared with other builds (load "
                + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + " at the end)";
    }
}
