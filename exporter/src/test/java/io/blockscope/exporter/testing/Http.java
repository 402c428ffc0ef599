package io.blockscope.exporter.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain JDK HttpClient calls for tests. */
public final class Http {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {}

    /** GET {@code uri} with header name/value pairs. */
    public static HttpResponse<byte[]> get(URI uri, String... headers) throws IOException, InterruptedException {
        return get(CLIENT, uri, headers);
    }

    public static HttpResponse<byte[]> get(HttpClient client, URI uri, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
