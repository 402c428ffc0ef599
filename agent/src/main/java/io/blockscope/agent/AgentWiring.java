package io.blockscope.agent;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.bootstrap.BufferHolders;
import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.HeldBuffers;
import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.instrument.BufferViews;
import io.blockscope.agent.instrument.DeferredTransformer;
import io.blockscope.agent.instrument.Instrumenter;
import io.blockscope.agent.instrument.ProbeCheck;
import io.blockscope.agent.instrument.ProbeExtension;
import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.instrument.TargetFilter;
import io.blockscope.agent.metrics.AgentMetrics;
import io.blockscope.agent.metrics.LeakReport;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.agent.record.CallUsers;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.blockscope.agent.record.StuckBuffers;
import io.blockscope.agent.record.StuckCheckouts;
import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * The second half of the startup, linked only after the bridge is in the bootstrap class loader:
 * the metrics, the recorder behind the bridge, the instrumentation, and last the exporter, so no
 * advice runs before everything it reports to exists.
 *
 * <p>At JVM start ({@code premain}) only the {@link DeferredTransformer} is registered on the host's
 * thread; the rest (ByteBuddy, JFR, Jetty: a second or more of CPU) runs on a daemon thread, so the
 * host's {@code main} does not wait for it. A probe target that loads before the instrumentation is
 * in place waits for it at its load. The state property reads {@value #STARTING} until the start is
 * done; the port property is set once the endpoint serves. On a late attach everything runs on the
 * attaching thread, so the launcher reads the final state as {@code loadAgent} returns.
 */
final class AgentWiring {

    static final String PORT_PROPERTY = "blockscope.agent.port";
    /** The state while the start thread runs: the endpoint is not up yet. */
    static final String STARTING = "starting";
    /** The daemon thread finishing a start from {@code premain}. */
    static final String THREAD = "blockscope-start";
    /**
     * Slots of the checkout table for profiles that count only returns of checked-out blocks: 1 MiB,
     * room for tens of thousands of blocks out at once (far more than a RegionServer's readers hold).
     */
    static final int CHECKOUT_SLOTS = 1 << 17;
    /**
     * Slots of the table of pool buffers out, for profiles with a pool: 256 KiB, under half full
     * with a pool of 16,000 buffers (HBase's default is 64 per RPC handler: 1,920 with 30).
     */
    static final int HELD_BUFFER_SLOTS = 1 << 15;

    private AgentWiring() {}

    /** @param began {@link System#nanoTime} when {@code premain} or {@code agentmain} was entered */
    /**
     * Lets the profile's buffer-touch probes reach the pool's buffers from the views a holder keeps;
     * without that link they stay off (logged once) and a slow reader's buffer may count as stuck.
     */
    private static void touchBuffers(Profile profile, Instrumentation instrumentation) {
        List<String> fields = new ArrayList<>();
        for (ProbeSpec probe : profile.probes()) {
            if (probe instanceof ProbeSpec.BufferTouch) {
                fields.addAll(((ProbeSpec.BufferTouch) probe).bufferFields());
            }
        }
        if (fields.isEmpty()) {
            return;
        }
        try {
            BufferHolders.configure(fields.toArray(new String[0]), BufferViews.origin(instrumentation));
        } catch (ReflectiveOperationException | RuntimeException e) {
            AgentLog.warn("buffer-touch probes off: cannot read a direct buffer's origin on this JDK (" + e
                    + "); a pool buffer held by a slow reader counts as stuck after leak.age");
        }
    }

    static void start(AgentRuntime.Setup setup, Instrumentation instrumentation, boolean lateAttach, long began) {
        ClassLoader hostLoader = ClassLoader.getSystemClassLoader();
        DeferredTransformer front = setup.profile().isPresent()
                ? DeferredTransformer.register(
                        instrumentation, TargetFilter.of(setup.profile().get(), hostLoader))
                : null;
        if (lateAttach) {
            complete(setup, instrumentation, front, new Timing(began, true));
            return;
        }
        System.setProperty(AgentLog.STATE_PROPERTY, STARTING);
        Timing timing = new Timing(began, false);
        Thread thread = new Thread(() -> complete(setup, instrumentation, front, timing), THREAD);
        thread.setDaemon(true);
        if (front != null) {
            front.startedBy(thread);
        }
        thread.start();
    }

    /** The rest of the start; like the first half, it never lets a failure reach the host. */
    private static void complete(
            AgentRuntime.Setup setup, Instrumentation instrumentation, DeferredTransformer front, Timing timing) {
        long cpuStart = threadCpu();
        try {
            Exporter exporter = wire(setup, instrumentation, front, timing);
            long cpuEnd = threadCpu();
            if (cpuStart >= 0 && cpuEnd >= 0) {
                exporter.cpu().startup(cpuEnd - cpuStart);
            }
        } catch (Throwable t) {
            if (front != null) {
                front.abandon();
                instrumentation.removeTransformer(front);
            }
            AgentLog.disabled(t);
        }
    }

    /**
     * The calling thread's CPU time, or -1 when the JVM does not measure it: the start's own cost,
     * exported as {@code blockscope_agent_cpu_seconds_total{part="startup"}}. The start thread is new,
     * so from its first line this is all of its work; premain's time on the host's main thread is
     * not in it (the start line logs how long that was).
     */
    private static long threadCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()
                ? threads.getCurrentThreadCpuTime()
                : -1;
    }

    private static Exporter wire(
            AgentRuntime.Setup setup, Instrumentation instrumentation, DeferredTransformer front, Timing timing)
            throws Exception {
        AgentConfig config = setup.config();
        ExporterConfig exporterConfig = setup.exporterConfig();
        Exporter exporter = Exporter.create(exporterConfig);
        String version = AgentRuntime.version();
        if (setup.profile().isEmpty()) {
            exporter.start();
            AgentLog.warn(
                    "no known server classes on the class path (built-in profiles: "
                            + String.join(", ", Profiles.builtIn())
                            + "): nothing to instrument, only JVM and GC metrics are served. Set profile=<name or file> to choose one");
            AgentLog.info("agent " + version + " running without a profile; " + timing);
            publishState(exporter, "running without a profile");
            return exporter;
        }
        Profile profile = setup.profile().get();
        ClassLoader hostLoader = ClassLoader.getSystemClassLoader();
        ProbeStatus status = new ProbeStatus(profile);
        LeakReport leaks = new LeakReport(config.sites(), profile.tiers(), profile.bufferTiers(), config.leakAge());
        AgentMetrics metrics = new AgentMetrics(profile, status, version, leaks, exporter.registry());
        Recorder recorder = new Recorder(
                new SiteResolver(profile.siteSkip(), profile.receiverTypes()),
                new SiteResolver(profile.allocatorTypes()),
                config.tracked(),
                config.leakRate(),
                config.leakAge(),
                config.copyJfr() && jfrPresent(),
                config.sites(),
                profile.probes().size(),
                metrics,
                leaks);
        boolean[] bufferTiers = new boolean[profile.tiers().size()];
        for (int t = 0; t < bufferTiers.length; t++) {
            bufferTiers[t] = leaks.bufferTier(t);
        }
        recorder.bufferTiers(bufferTiers);
        metrics.attach(recorder);
        if (profile.matchesReturns()) {
            Checkouts.matchReturns(CHECKOUT_SLOTS);
            metrics.attach(new StuckCheckouts(
                    Checkouts.checkouts(), config.leakAge(), profile.tiers().size(), System.nanoTime()));
        }
        if (!profile.bufferTiers().isEmpty()) {
            HeldBuffers held = new HeldBuffers(HELD_BUFFER_SLOTS);
            Checkouts.holdBuffers(held);
            metrics.attach(new StuckBuffers(held, config.leakAge()));
            touchBuffers(profile, instrumentation);
        }
        Bridge.install(recorder, config.leakSample(), config.copySample(), config.copySampleBytes());
        if (profile.tracksContext()) {
            String userPath = profile.callUserPath();
            Context.configure(
                    config.tables(),
                    config.users(),
                    userPath == null ? Context.UserNames.NONE : new CallUsers(userPath));
        }

        // the diagnostics jar's probe switch; the production jar has no extension
        ProbeExtension extension = ProbeExtension.find(AgentWiring.class.getClassLoader());
        if (extension != null) {
            extension.prepare(instrumentation);
        }
        // a target loaded before its probes may have instances already: capture them as after an attach
        boolean instancesMayExist = timing.lateAttach || front.targetLoadedEarly();
        Instrumenter instrumenter = new Instrumenter(profile, status, instancesMayExist, extension);
        Instrumentation probeInstrumentation = front.instrumentation(instrumentation);
        ResettableClassFileTransformer probes = instrumenter.install(probeInstrumentation, front.filter());
        if (extension != null) {
            extension.installed(profile, instrumenter, probeInstrumentation, front.filter(), probes);
        }
        logProbes(profile, hostLoader, timing.lateAttach);
        exporter.start();
        AgentLog.info("agent " + version + " running with profile " + profile.name()
                + (exporter.isServing()
                        ? ", metrics at " + (exporterConfig.tls() != null ? "https" : "http") + "://"
                                + host(exporterConfig) + ":" + exporter.port() + "/metrics"
                        : ", metrics NOT served (see above)")
                + "; leak.sample=" + config.leakSample() + ", leak.rate=" + config.leakRate() + ", copy.sample="
                + (config.copySampleBytes() > 0 ? config.copySampleBytes() + " bytes" : config.copySample())
                + "; " + timing
                + (timing.lateAttach ? "" : "; probe targets held until the probes were in: " + front.holds()));
        publishState(exporter, "running profile " + profile.name());
        return exporter;
    }

    /** How long the start took, and how much of it the host's thread waited for. */
    private static final class Timing {
        private final long began;
        private final long handedOff;
        final boolean lateAttach;

        Timing(long began, boolean lateAttach) {
            this.began = began;
            this.handedOff = System.nanoTime();
            this.lateAttach = lateAttach;
        }

        @Override
        public String toString() {
            long total = (System.nanoTime() - began) / 1_000_000;
            return lateAttach
                    ? "attached in " + total + " ms"
                    : "started in " + total + " ms, of which premain (the host's main waits for it) "
                            + (handedOff - began) / 1_000_000 + " ms";
        }
    }

    private static void logProbes(Profile profile, ClassLoader loader, boolean lateAttach) {
        List<String> found = new ArrayList<>();
        List<ProbeCheck.Result> missing = new ArrayList<>();
        for (ProbeCheck.Result result : ProbeCheck.check(profile, loader)) {
            if (result.found()) {
                found.add(result.probe());
            } else {
                missing.add(result);
            }
        }
        List<String> skipped = new ArrayList<>();
        for (ProbeCheck.Result result : missing) {
            String covering = null;
            for (ProbeSpec probe : profile.probes()) {
                if (probe.name().equals(result.probe())) {
                    for (String alternative : probe.alternatives()) {
                        if (covering == null && found.contains(alternative)) {
                            covering = alternative;
                        }
                    }
                }
            }
            skipped.add(result.probe() + " (" + String.join("; ", result.details())
                    + (covering == null ? "" : "; not needed: its alternative " + covering + " has targets") + ")");
        }
        AgentLog.info(
                "profile " + profile.name() + (lateAttach ? " (late attach: loaded classes are retransformed)" : "")
                        + ": probes with targets: " + (found.isEmpty() ? "none" : String.join(", ", found))
                        + "; skipped: " + (skipped.isEmpty() ? "none" : String.join(", ", skipped)));
    }

    /** System properties the launcher (and tests) read back from the target JVM. */
    /**
     * Whether this runtime has JFR (module jdk.jfr), which copy events need; a jlinked runtime may
     * leave it out, and then copy.jfr is turned off with one line instead of failing on every copy.
     */
    private static boolean jfrPresent() {
        if (ModuleLayer.boot().findModule("jdk.jfr").isPresent()) {
            return true;
        }
        AgentLog.warn("copy.jfr is on, but this Java runtime has no jdk.jfr module: copy events are off;"
                + " copies are still counted");
        return false;
    }

    /** The port first: a reader that waits for the state to leave {@value #STARTING} then finds it. */
    private static void publishState(Exporter exporter, String state) {
        if (exporter.isServing()) {
            System.setProperty(PORT_PROPERTY, Integer.toString(exporter.port()));
        }
        System.setProperty(AgentLog.STATE_PROPERTY, state + (exporter.isServing() ? "" : "; metrics not served"));
    }

    private static String host(ExporterConfig config) {
        String host = config.host();
        if (host == null || host.isEmpty() || host.equals("0.0.0.0")) {
            return "localhost";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
