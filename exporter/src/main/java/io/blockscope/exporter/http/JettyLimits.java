package io.blockscope.exporter.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectableChannelEndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The scrape endpoint's limits against hostile or broken clients, set on purpose (docs/security.md):
 * header size caps, an idle timeout, a cap on connections overall and per client address, and a
 * deadline on every exchange, after which the connection is closed (a slow reader would otherwise
 * hold one of the few serving threads for as long as it likes). Jetty 12 keeps the minimum data
 * rate settings of {@link HttpConfiguration} but no longer enforces them, hence the deadline.
 */
final class JettyLimits {

    static final int MAX_HEADER_BYTES = 8 * 1024;
    static final long IDLE_TIMEOUT_MS = 15_000;
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_CONNECTIONS_PER_CLIENT = 16;
    /** Prometheus's default scrape timeout is 10 s; no honest scrape of this endpoint comes near it. */
    static final long EXCHANGE_DEADLINE_MS = 20_000;

    private JettyLimits() {}

    /** Sets the limits on {@code http} and {@code connector}; returns {@code handler} behind the deadline. */
    static Handler apply(Server server, ServerConnector connector, HttpConfiguration http, Handler handler) {
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setResponseHeaderSize(MAX_HEADER_BYTES);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
        connector.addBean(new PerClientLimit(MAX_CONNECTIONS_PER_CLIENT));
        server.setErrorHandler(new ClientErrors());
        return new Deadline(handler, EXCHANGE_DEADLINE_MS);
    }

    /**
     * Jetty's answers to requests it cannot parse, without stack traces; a protocol version it does
     * not speak (HTTP/0.9, HTTP/2 without TLS, garbage) is the client's error, so 400 rather than
     * Jetty's 505: no request from outside can make this endpoint answer 5xx.
     */
    static final class ClientErrors extends ErrorHandler {

        ClientErrors() {
            setShowStacks(false);
            setShowMessageInTitle(false);
        }

        @Override
        protected void generateResponse(
                Request request, Response response, int code, String message, Throwable cause, Callback callback)
                throws java.io.IOException {
            int status = code == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505 ? HttpStatus.BAD_REQUEST_400 : code;
            response.setStatus(status);
            super.generateResponse(request, response, status, message, cause, callback);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            return super.badMessageError(
                    status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505 ? HttpStatus.BAD_REQUEST_400 : status,
                    reason,
                    fields);
        }
    }

    /** Closes a client's newest connection beyond the cap on open connections from its address. */
    static final class PerClientLimit implements Connection.Listener {

        private final int max;
        private final Map<String, Integer> open = new HashMap<>();
        /** The address each counted connection was counted under (a closed socket no longer tells it). */
        private final Map<Connection, String> counted = new HashMap<>();

        PerClientLimit(int max) {
            this.max = max;
        }

        @Override
        public void onOpened(Connection connection) {
            String client = client(connection);
            if (client == null) {
                return;
            }
            int count;
            synchronized (open) {
                count = open.merge(client, 1, Integer::sum);
                counted.put(connection, client);
            }
            if (count > max) {
                connection.getEndPoint().close();
            }
        }

        @Override
        public void onClosed(Connection connection) {
            synchronized (open) {
                String client = counted.remove(connection);
                if (client != null) {
                    open.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
                }
            }
        }

        /** The peer address of a network connection; null for connections layered on one (TLS inside). */
        private static String client(Connection connection) {
            EndPoint endPoint = connection.getEndPoint();
            if (!(endPoint instanceof SelectableChannelEndPoint)) {
                return null;
            }
            SocketAddress remote = endPoint.getRemoteSocketAddress();
            return remote instanceof InetSocketAddress
                    ? ((InetSocketAddress) remote).getAddress().getHostAddress()
                    : String.valueOf(remote);
        }
    }

    /** Closes at once (a TCP reset), so that a slow reader cannot keep draining the kernel's buffers. */
    static void abort(EndPoint endPoint, Throwable cause) {
        Object transport = endPoint.getTransport();
        if (transport instanceof SocketChannel) {
            try {
                ((SocketChannel) transport).setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException | RuntimeException e) {
                // already closed: the plain close below is all there is
            }
        }
        endPoint.close(cause);
    }

    /** Closes the connection of an exchange that has not completed within the deadline. */
    static final class Deadline extends Handler.Wrapper {

        private final long deadlineMs;

        Deadline(Handler next, long deadlineMs) {
            super(next);
            this.deadlineMs = deadlineMs;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
            Scheduler.Task task = request.getComponents()
                    .getScheduler()
                    .schedule(
                            () -> abort(
                                    endPoint, new TimeoutException("exchange not done within " + deadlineMs + " ms")),
                            deadlineMs,
                            TimeUnit.MILLISECONDS);
            Callback guarded = Callback.from(callback, task::cancel);
            try {
                if (super.handle(request, response, guarded)) {
                    return true;
                }
            } catch (Exception | Error e) {
                task.cancel();
                throw e;
            }
            task.cancel();
            return false;
        }
    }
}
