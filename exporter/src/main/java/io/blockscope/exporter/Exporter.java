package io.blockscope.exporter;

import io.blockscope.exporter.endpoint.Endpoint;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.self.AgentCpu;
import io.blockscope.exporter.self.SelfMetrics;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The running exporter: a registry with the JVM, GC and self metrics, and (when it could bind) the
 * HTTP endpoint serving it.
 *
 * <p>Built to live inside someone else's JVM: {@link #start} never throws and never exits; a part
 * that cannot start is logged once and left out, and the handle stays usable for registration.
 */
public final class Exporter implements AutoCloseable {

    private final PrometheusRegistry registry;
    private final ExporterConfig config;
    private final EndpointKind endpoint;
    private final AgentCpu cpu = new AgentCpu();
    private volatile GcMonitoring gc;
    private volatile Endpoint server;
    private boolean started;

    private Exporter(PrometheusRegistry registry, ExporterConfig config, EndpointKind endpoint) {
        this.registry = registry;
        this.config = config;
        this.endpoint = endpoint;
    }

    /** Starts everything {@code config} asks for; what fails is logged once and left out. */
    public static Exporter start(ExporterConfig config) {
        return start(config, EndpointKind.forThisJdk());
    }

    /** As {@link #start(ExporterConfig)}, on the given endpoint (tests run both on one JDK). */
    public static Exporter start(ExporterConfig config, EndpointKind endpoint) {
        return create(config, endpoint).start();
    }

    /**
     * The registry only, nothing started: collectors can register while {@link #start} (JVM and GC
     * metrics, the endpoint; about a second of a JVM's start-up) runs later or on another thread.
     */
    public static Exporter create(ExporterConfig config) {
        return create(config, EndpointKind.forThisJdk());
    }

    static Exporter create(ExporterConfig config, EndpointKind endpoint) {
        return new Exporter(new PrometheusRegistry(), config, endpoint);
    }

    /** Starts what the configuration asks for, once; never throws. */
    public synchronized Exporter start() {
        if (started) {
            return this;
        }
        started = true;
        if (config == null) {
            Log.warn("no exporter configuration given: metrics are collected but not served");
            return this;
        }
        // Explicit defaults rather than PrometheusProperties.get(), which would read the host's
        // system properties and any prometheus.properties on its class path.
        PrometheusProperties properties = PrometheusProperties.builder().build();
        try {
            SelfMetrics self = new SelfMetrics(registry, properties, cpu);
            if (config.jvmMetrics()) {
                registerJvmMetrics(registry, properties);
            }
            gc = GcMonitoring.start(registry, properties, config.gcSource());
            cpu.jfrThread(gc.thread());
            server = serve(endpoint, config, registry, properties, self);
        } catch (Throwable t) {
            // Only a bug gets here: each step above handles its own failures.
            Log.warnOnce("exporter-start", "the exporter did not start completely; the host goes on", t);
        }
        return this;
    }

    private static void registerJvmMetrics(PrometheusRegistry registry, PrometheusProperties properties) {
        try {
            JvmMetrics.builder(properties).register(registry);
        } catch (RuntimeException | LinkageError e) {
            Log.warnOnce("jvm-metrics", "standard jvm_* metrics are not available", e);
        }
    }

    private static Endpoint serve(
            EndpointKind kind,
            ExporterConfig config,
            PrometheusRegistry registry,
            PrometheusProperties properties,
            SelfMetrics self) {
        try {
            Endpoint server = kind.start(config, registry, properties, self);
            Log.info(
                    "serving metrics on " + config + " (bound port " + server.port() + ", " + kind.description() + ")");
            if (config.credentials() != null && config.tls() == null) {
                Log.warn("basic auth over plain HTTP sends the password readable to anyone on the path;"
                        + " add tls.keystore or tls.cert + tls.key");
            }
            return server;
        } catch (Exception | LinkageError e) {
            Log.warnOnce(
                    "bind-" + config.host() + ":" + config.port(),
                    "cannot serve metrics on " + config + ": " + remedy(e)
                            + "; the host application goes on and metrics are still collected",
                    e);
            return null;
        }
    }

    /** What the operator should change, judging by the root cause. */
    private static String remedy(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof java.net.BindException) {
            return "the port is taken (or the address is not on this machine); choose a free port in the"
                    + " exporter's [host:]port";
        }
        if (root instanceof java.nio.channels.UnresolvedAddressException) {
            return "the host name does not resolve; give an address of this machine, or only a port";
        }
        return "check the exporter's [host:]port and TLS options";
    }

    /** The registry served at {@code /metrics}; register more collectors here. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** The bound port (the chosen one when configured with port 0), or -1 when not serving. */
    public int port() {
        return server == null ? -1 : server.port();
    }

    /** The agent's threads' CPU time, exported once started; the agent adds its start work here. */
    public AgentCpu cpu() {
        return cpu;
    }

    /** Whether the HTTP endpoint is up. */
    public boolean isServing() {
        return server != null;
    }

    /** Where GC metrics come from: JFR, the MXBean fallback, or nowhere. */
    public GcMonitoring.Source gcSource() {
        return gc == null ? GcMonitoring.Source.NONE : gc.source();
    }

    /** Stops serving and collecting; idempotent, never throws. */
    @Override
    public synchronized void close() {
        started = true; // a start after close starts nothing
        if (server != null) {
            server.close();
        }
        if (gc != null) {
            gc.close();
        }
    }
}
