package io.blockscope.exporter.http;

import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.endpoint.Endpoint;
import io.blockscope.exporter.self.SelfMetrics;
import io.blockscope.exporter.tls.TlsMaterial;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The embedded Jetty 12 server behind the scrape endpoint on JDK 17+ (loaded by name from {@code
 * EndpointKind}: this package is compiled for Java 17, like Jetty). All its threads are daemons, so it never
 * keeps the host JVM alive; there is one selector thread, which also accepts connections, and the
 * rest of the bounded pool serves requests.
 */
public final class MetricsServer implements Endpoint {

    private static final long IDLE_TIMEOUT_MS = 30_000;

    private final Server server;
    private final ServerConnector connector;

    private MetricsServer(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /**
     * Binds and starts serving.
     *
     * @throws Exception when the port cannot be bound (or Jetty cannot start); nothing is left running
     */
    public static MetricsServer start(
            ExporterConfig config, PrometheusRegistry registry, PrometheusProperties properties, SelfMetrics self)
            throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(config.threads(), Math.min(2, config.threads()));
        threads.setName("blockscope-exporter");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        Server server =
                new Server(threads, new ScheduledExecutorScheduler("blockscope-exporter-scheduler", true), null);
        server.setStopAtShutdown(false);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ConnectionFactory[] factories;
        HttpConnectionFactory http11;
        if (config.tls() != null) {
            // No SNI host check: the certificate is the client's to verify, and Prometheus often scrapes
            // by an address that is not among the certificate's names.
            http.addCustomizer(new SecureRequestCustomizer(false));
            http11 = new HttpConnectionFactory(http);
            factories = new ConnectionFactory[] {
                new SslConnectionFactory(sslContextFactory(config.tls()), HttpVersion.HTTP_1_1.asString()), http11
            };
        } else {
            http11 = new HttpConnectionFactory(http);
            factories = new ConnectionFactory[] {http11};
        }
        ServerConnector connector = new ServerConnector(server, 0, 1, factories);
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addConnector(connector);

        Handler handler = new MetricsHandler(registry, properties, self);
        if (config.credentials() != null) {
            handler = new BasicAuthHandler(config.credentials(), handler);
        }
        server.setHandler(handler);
        try {
            server.start();
        } catch (Exception | Error e) {
            stopQuietly(server);
            throw e;
        }
        return new MetricsServer(server, connector);
    }

    private static SslContextFactory.Server sslContextFactory(TlsMaterial tls) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(tls.keyStore());
        ssl.setKeyManagerPassword(new String(tls.keyPassword()));
        if (tls.clientTrustStore() != null) {
            ssl.setTrustStore(tls.clientTrustStore());
            ssl.setNeedClientAuth(true);
        }
        return ssl;
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        stopQuietly(server);
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            // Stopping is best effort: the threads are daemons and die with the JVM anyway.
        }
    }
}
