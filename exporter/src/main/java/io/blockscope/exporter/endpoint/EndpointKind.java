package io.blockscope.exporter.endpoint;

import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.self.SelfMetrics;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.reflect.InvocationTargetException;

/** Which server carries the endpoint, and starting it. */
public enum EndpointKind {
    /** Jetty 12 (class files for Java 17): loaded by name, so no Java 11 class refers to it. */
    JETTY("Jetty"),
    /** Netty 4.1 (Java 8 class files), for JDK 11 to 16. */
    NETTY("Netty");

    /** The Jetty endpoint's class; compiled apart at release 17 (see the exporter's pom). */
    private static final String JETTY_SERVER = "io.blockscope.exporter.http.MetricsServer";

    private final String description;

    EndpointKind(String description) {
        this.description = description;
    }

    /** Jetty where it can run (JDK 17+), else Netty. */
    public static EndpointKind forThisJdk() {
        return Runtime.version().feature() >= 17 ? JETTY : NETTY;
    }

    public String description() {
        return description;
    }

    /**
     * Binds and starts serving.
     *
     * @throws Exception when the port cannot be bound or the server cannot start; nothing is left running
     */
    public Endpoint start(
            ExporterConfig config, PrometheusRegistry registry, PrometheusProperties properties, SelfMetrics self)
            throws Exception {
        if (this == NETTY) {
            return NettyEndpoint.start(config, registry, properties, self);
        }
        try {
            return (Endpoint) Class.forName(JETTY_SERVER)
                    .getMethod(
                            "start",
                            ExporterConfig.class,
                            PrometheusRegistry.class,
                            PrometheusProperties.class,
                            SelfMetrics.class)
                    .invoke(null, config, registry, properties, self);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }
}
