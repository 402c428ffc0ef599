package io.blockscope.exporter.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** One request over a fresh socket, byte for byte as given, from a chosen loopback address. */
public final class RawHttp {

    /** What came back: the status code, 0 for a clean close without a response, -1 for a timeout. */
    public static final class Answer {
        public final int status;
        public final String text;

        public Answer(int status, String text) {
            this.status = status;
            this.text = text;
        }

        /**
         * Whether this is no HTTP response but a run of {@code request}'s bytes. Jetty 12.1 has been
         * seen to answer so under fuzzing, a few times in tens of thousands of requests and never on
         * a quiet machine: with the answered request's own bytes, or with the previous connection's
         * oversized header. No endpoint here writes request bytes back, so they come from Jetty's buffers.
         */
        public boolean echoes(byte[] request) {
            if (status != 1) {
                return false;
            }
            String sent = new String(request, StandardCharsets.ISO_8859_1);
            return sent.contains(text.substring(0, Math.min(text.length(), 64)));
        }

        @Override
        public String toString() {
            return status + " " + text.lines().findFirst().orElse("");
        }
    }

    private RawHttp() {}

    public static Answer send(String fromAddress, int port, byte[] request, int timeoutMs) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(timeoutMs);
            if (fromAddress != null) {
                socket.bind(new InetSocketAddress(fromAddress, 0));
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMs);
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
                socket.shutdownOutput();
            } catch (IOException e) {
                // the server may close before reading everything (e.g. a header too large): read what it said
            }
            return read(socket.getInputStream());
        } catch (SocketTimeoutException e) {
            return new Answer(-1, "timeout");
        }
    }

    public static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        try {
            for (int n; (n = in.read(chunk)) > 0 && buffer.size() < 1 << 20; ) {
                buffer.write(chunk, 0, n);
            }
        } catch (java.net.SocketException e) {
            // reset by the server after its answer: keep what arrived
        }
        String text = buffer.toString(StandardCharsets.ISO_8859_1);
        if (text.isEmpty()) {
            return new Answer(0, "closed");
        }
        if (text.startsWith("HTTP/1.") && text.length() >= 12) {
            return new Answer(Integer.parseInt(text.substring(9, 12)), text);
        }
        return new Answer(1, text);
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
