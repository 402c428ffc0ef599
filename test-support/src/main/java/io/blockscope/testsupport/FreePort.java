package io.blockscope.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A loopback port nothing listens on at the moment of asking. Another process can take it before the
 * caller binds it: callers that start a server on it retry when the server reports the port taken.
 */
public final class FreePort {

    private FreePort() {}

    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
