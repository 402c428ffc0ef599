package io.blockscope.exporter.endpoint;

/**
 * The HTTP endpoint serving {@code /metrics}, {@code /-/healthy}, {@code /} and {@code /runbooks}: Jetty 12 on JDK
 * 17+, Netty on JDK 11-16 (Jetty 12 is built for 17). Both
 * answer every request the same way (status, headers, body); {@code EndpointTest} runs against both.
 */
public interface Endpoint extends AutoCloseable {

    String METRICS = "/metrics";
    String HEALTHY = "/-/healthy";

    /** The bound port: the chosen one for port 0. */
    int port();

    /** Stops serving; idempotent, never throws. */
    @Override
    void close();
}
