package io.blockscope.server.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectableChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The connection-level defences Jetty 12 does not give on its own (docs/security.md): a cap on open
 * connections per client address, a deadline for slow clients (Jetty 12 keeps the minimum data rate
 * settings but no longer enforces them), and answers without stack traces or 5xx to requests Jetty
 * cannot parse.
 */
final class ConnectionGuards {

    private ConnectionGuards() {}

    /**
     * Closes the request's connection if {@code task} has not finished within {@code timeout}; cancel
     * the returned task when it has. Closing the connection fails a pending read or write, which is
     * what releases a slow reader's blocks.
     */
    static Scheduler.Task deadline(Request request, Duration timeout, String what) {
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        return request.getComponents()
                .getScheduler()
                .schedule(
                        () -> abort(
                                endPoint,
                                new TimeoutException(what + " took longer than " + timeout.toMillis()
                                        + " ms (--slow-client-timeout)")),
                        timeout.toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    /**
     * Closes the connection at once (a TCP reset): a graceful close would leave megabytes of response
     * in the kernel's send buffer for the slow reader to keep draining.
     */
    static void abort(EndPoint endPoint, Throwable cause) {
        if (endPoint.getTransport() instanceof SocketChannel channel) {
            try {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException | RuntimeException e) {
                // already closed, or not a TCP socket: the plain close below is all there is
            }
        }
        endPoint.close(cause);
    }

    /** {@code callback}, which also cancels {@code task} when it completes either way. */
    static Callback cancelling(Callback callback, Scheduler.Task task) {
        return Callback.from(callback, task::cancel);
    }

    /** Closes a client's newest connection beyond the cap on open connections from its address. */
    static final class PerClientLimit implements Connection.Listener {

        private final int max;
        private final Map<String, Integer> open = new HashMap<>();
        /** The address each connection was counted under (a closed socket no longer tells it). */
        private final Map<Connection, String> counted = new HashMap<>();

        PerClientLimit(int max) {
            this.max = max;
        }

        @Override
        public void onOpened(Connection connection) {
            EndPoint endPoint = connection.getEndPoint();
            if (!(endPoint instanceof SelectableChannelEndPoint)) {
                return;
            }
            SocketAddress remote = endPoint.getRemoteSocketAddress();
            String client = remote instanceof InetSocketAddress inet
                    ? inet.getAddress().getHostAddress()
                    : String.valueOf(remote);
            int count;
            synchronized (open) {
                count = open.merge(client, 1, Integer::sum);
                counted.put(connection, client);
            }
            if (count > max) {
                endPoint.close();
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

        /** Connections counted now (for /status). */
        int open() {
            synchronized (open) {
                return counted.size();
            }
        }
    }

    /**
     * Jetty's own answers to requests it cannot parse: no stack traces, and an HTTP version Jetty
     * does not speak (HTTP/0.9, HTTP/2 without TLS, garbage) is the client's error, so 400 rather than
     * 505: no request from outside can make the server answer 5xx for its form.
     */
    static final class ClientErrors extends ErrorHandler {

        ClientErrors() {
            setShowStacks(false);
            setShowMessageInTitle(false);
        }

        @Override
        protected void generateResponse(
                Request request, Response response, int code, String message, Throwable cause, Callback callback)
                throws IOException {
            int status = code == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505 ? HttpStatus.BAD_REQUEST_400 : code;
            response.setStatus(status);
            super.generateResponse(request, response, status, message, cause, callback);
        }
    }
}
