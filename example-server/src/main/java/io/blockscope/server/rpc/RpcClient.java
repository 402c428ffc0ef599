package io.blockscope.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * A small blocking client for the RPC endpoints, used by PE's {@code --target} mode and the tests.
 * Keys travel hex- or base64-encoded, so any bytes work. Thread-safe.
 */
public final class RpcClient {

    /** One response: its cells (unless discarded), counts from the headers, and the continuation if any. */
    public record Reply(int status, List<ClientCell> cells, long rows, long rowsScanned, String continuation) {}

    /** A scan's parameters; empty arrays mean the table's start/end, null filter means none, limit <= 0 no limit. */
    public record Scan(byte[] start, byte[] stop, String filter, long limit, long maxBytes) {

        public static Scan range(byte[] start, byte[] stop) {
            return new Scan(start, stop, null, 0, 0);
        }

        public Scan withFilter(String spec) {
            return new Scan(start, stop, spec, limit, maxBytes);
        }

        public Scan withLimit(long rows) {
            return new Scan(start, stop, filter, rows, maxBytes);
        }

        public Scan withMaxBytes(long bytes) {
            return new Scan(start, stop, filter, limit, bytes);
        }
    }

    private final URI base;
    private final HttpClient http;
    private final Duration timeout;

    public RpcClient(URI base, Duration timeout) {
        this.base = base;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    public URI base() {
        return base;
    }

    public Reply get(String table, byte[] row, boolean decode) throws IOException {
        return send(httpGet(path(table, "get") + "?keyEncoding=hex&row=" + hex(row)), decode);
    }

    public Reply multiGet(String table, List<byte[]> rows, boolean decode) throws IOException {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("keyEncoding", "base64");
        ArrayNode array = body.putArray("rows");
        for (byte[] row : rows) {
            array.add(Base64.getEncoder().encodeToString(row));
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path(table, "multiget")))
                .timeout(timeout)
                .header("Content-Type", Json.CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)))
                .build();
        return send(request, decode);
    }

    /** One scan call; follow {@link Reply#continuation()} with {@link #scan(String, Scan, String, boolean)} for the rest. */
    public Reply scan(String table, Scan scan, String continuation, boolean decode) throws IOException {
        StringBuilder q = new StringBuilder(path(table, "scan")).append("?keyEncoding=hex");
        if (scan.start().length > 0) {
            q.append("&start=").append(hex(scan.start()));
        }
        if (scan.stop().length > 0) {
            q.append("&stop=").append(hex(scan.stop()));
        }
        if (scan.filter() != null) {
            q.append("&filter=").append(URLEncoder.encode(scan.filter(), StandardCharsets.UTF_8));
        }
        if (scan.limit() > 0) {
            q.append("&limit=").append(scan.limit());
        }
        if (scan.maxBytes() > 0) {
            q.append("&maxBytes=").append(scan.maxBytes());
        }
        if (continuation != null) {
            q.append("&continuation=").append(continuation);
        }
        return send(httpGet(q.toString()), decode);
    }

    /** A whole scan, following continuations; returns every reply in order. */
    public List<Reply> scanAll(String table, Scan scan) throws IOException {
        List<Reply> replies = new ArrayList<>();
        String continuation = null;
        do {
            Reply reply = scan(table, scan, continuation, true);
            replies.add(reply);
            continuation = reply.continuation();
        } while (continuation != null);
        return replies;
    }

    public JsonNode status() throws IOException {
        return status("/status");
    }

    /** The status once every GC pause up to now has reached the server's JFR reader (about a second). */
    public JsonNode statusWithSettledGc() throws IOException {
        return status("/status?gc=settled");
    }

    private JsonNode status(String pathAndQuery) throws IOException {
        HttpResponse<byte[]> response = exchange(httpGet(pathAndQuery), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new RpcClientException(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        }
        return Json.MAPPER.readTree(response.body());
    }

    /** Sends any request and returns status and body as text: for tests of error responses. */
    public HttpResponse<String> raw(HttpRequest request) throws IOException {
        return exchange(request, HttpResponse.BodyHandlers.ofString());
    }

    public HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(timeout);
    }

    private HttpRequest httpGet(String pathAndQuery) {
        return request(pathAndQuery).GET().build();
    }

    private Reply send(HttpRequest request, boolean decode) throws IOException {
        if (!decode) {
            HttpResponse<Void> response = exchange(request, HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 200) {
                throw new RpcClientException(
                        response.statusCode(), "HTTP " + response.statusCode() + " for " + request.uri());
            }
            return reply(response, List.of());
        }
        HttpResponse<byte[]> response = exchange(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new RpcClientException(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        }
        return reply(response, CellBlock.decode(ByteBuffer.wrap(response.body())));
    }

    private static Reply reply(HttpResponse<?> response, List<ClientCell> cells) {
        long rows = response.headers().firstValueAsLong("X-Blockscope-Rows").orElse(-1);
        long scanned =
                response.headers().firstValueAsLong("X-Blockscope-Rows-Scanned").orElse(-1);
        String continuation =
                response.headers().firstValue("X-Blockscope-Continuation").orElse(null);
        return new Reply(response.statusCode(), cells, rows, scanned, continuation);
    }

    private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
        try {
            return http.send(request, handler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + request.uri(), e);
        }
    }

    private static String path(String table, String op) {
        return "/v1/" + URLEncoder.encode(table, StandardCharsets.UTF_8) + "/" + op;
    }

    private static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }

    /** A non-200 reply. */
    public static final class RpcClientException extends IOException {

        private static final long serialVersionUID = 1L;
        private final int status;

        RpcClientException(int status, String body) {
            super("HTTP " + status + ": " + body);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
