package io.blockscope.agent;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.instrument.Instrumenter;
import io.blockscope.agent.instrument.ProbeCheck;
import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.metrics.AgentMetrics;
import io.blockscope.agent.metrics.LeakReport;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * The second half of the startup, linked only after the bridge is in the bootstrap class loader:
 * the exporter, the metrics, the recorder behind the bridge, and last the instrumentation, so no
 * advice runs before everything it reports to exists.
 */
final class AgentWiring {

    static final String PORT_PROPERTY = "blockscope.agent.port";
    /**
     * Slots of the checkout table for profiles that count only returns of checked-out blocks: 1 MiB,
     * room for tens of thousands of blocks out at once (far more than a RegionServer's readers hold).
     */
    static final int CHECKOUT_SLOTS = 1 << 17;

    private AgentWiring() {}

    static void start(AgentRuntime.Setup setup, Instrumentation instrumentation, boolean lateAttach) {
        AgentConfig config = setup.config();
        ExporterConfig exporterConfig = setup.exporterConfig();
        Exporter exporter = Exporter.start(exporterConfig);
        String version = AgentRuntime.version();
        if (setup.profile().isEmpty()) {
            AgentLog.warn(
                    "no known server classes on the class path (built-in profiles: "
                            + String.join(", ", Profiles.builtIn())
                            + "): nothing to instrument, only JVM and GC metrics are served. Set profile=<name or file> to choose one");
            publishState(exporter, "running without a profile");
            return;
        }
        Profile profile = setup.profile().get();
        ClassLoader hostLoader = ClassLoader.getSystemClassLoader();
        ProbeStatus status = new ProbeStatus(profile);
        LeakReport leaks = new LeakReport(config.sites(), profile.tiers(), config.leakAge());
        AgentMetrics metrics = new AgentMetrics(profile, status, version, leaks, exporter.registry());
        Recorder recorder = new Recorder(
                new SiteResolver(profile.siteSkip(), profile.receiverTypes()),
                new SiteResolver(profile.allocatorTypes()),
                config.tracked(),
                config.leakAge(),
                config.copyJfr() && jfrPresent(),
                config.sites(),
                profile.probes().size(),
                metrics,
                leaks);
        metrics.attach(recorder);
        if (profile.matchesReturns()) {
            Bridge.matchReturns(CHECKOUT_SLOTS);
        }
        Bridge.install(recorder, config.leakSample(), config.copySample(), config.copySampleBytes());

        logProbes(profile, hostLoader, lateAttach);
        new Instrumenter(profile, status).install(instrumentation);
        AgentLog.info("agent " + version + " running with profile " + profile.name()
                + (exporter.isServing()
                        ? ", metrics at " + (exporterConfig.tls() != null ? "https" : "http") + "://"
                                + host(exporterConfig) + ":" + exporter.port() + "/metrics"
                        : ", metrics NOT served (see above)")
                + "; leak.sample=" + config.leakSample() + ", copy.sample="
                + (config.copySampleBytes() > 0 ? config.copySampleBytes() + " bytes" : config.copySample()));
        publishState(exporter, "running profile " + profile.name());
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

    private static void publishState(Exporter exporter, String state) {
        System.setProperty(AgentLog.STATE_PROPERTY, state + (exporter.isServing() ? "" : "; metrics not served"));
        if (exporter.isServing()) {
            System.setProperty(PORT_PROPERTY, Integer.toString(exporter.port()));
        }
    }

    private static String host(ExporterConfig config) {
        String host = config.host();
        if (host == null || host.isEmpty() || host.equals("0.0.0.0")) {
            return "localhost";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
