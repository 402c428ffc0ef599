package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.jvm.ThreadAllocation;
import io.blockscope.server.region.Tables;
import java.net.URI;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** The example server's HTTP front: Jetty 12 core (no servlets) around {@link RpcRoutes}. */
public final class RpcServer implements AutoCloseable {

    /** Request and response header caps: 8 KB is Jetty's default, set here on purpose. */
    static final int MAX_HEADER_BYTES = 8 * 1024;

    private final Server server;
    private final ServerConnector connector;
    private final String host;

    private RpcServer(Server server, ServerConnector connector, String host) {
        this.server = server;
        this.connector = connector;
        this.host = host;
    }

    /**
     * Starts serving {@code tables} on {@code host:port} (port 0 picks a free one).
     *
     * @param filterClasses the {@code class:} filters clients may name
     * @param status   extra top-level entries for {@code /status} (server identity, cache statistics)
     * @param threads  most request threads
     */
    public static RpcServer start(
            String host,
            int port,
            Tables tables,
            RpcLimits limits,
            FilterClasses filterClasses,
            Supplier<Map<String, Object>> status,
            int threads)
            throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(Math.max(threads, 8), Math.min(8, threads)) {
            // A request thread that idles out hands its allocation in as it ends, so /status's
            // allocatedBytes never drops when the pool shrinks (PE would undercount the step).
            @Override
            public Thread newThread(Runnable runnable) {
                return super.newThread(ThreadAllocation.platform().counted(runnable));
            }
        };
        pool.setName("rpc");
        Server server = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setResponseHeaderSize(MAX_HEADER_BYTES);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connector));
        connector.addBean(new ConnectionGuards.PerClientLimit(limits.maxConnectionsPerClient()));
        server.setErrorHandler(new ConnectionGuards.ClientErrors());
        server.setHandler(RpcRoutes.handler(
                tables, limits, filterClasses, status, Thread.currentThread().getContextClassLoader()));
        server.setStopTimeout(5_000);
        server.start();
        return new RpcServer(server, connector, host);
    }

    public int port() {
        return connector.getLocalPort();
    }

    public URI uri() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port());
    }

    /** Blocks until the server stops. */
    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the RPC server failed", e);
        }
    }
}
