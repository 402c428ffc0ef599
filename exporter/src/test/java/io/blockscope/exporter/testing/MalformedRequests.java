package io.blockscope.exporter.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of malformed and odd HTTP/1.x requests: wrong methods and versions, broken
 * targets and percent-encoding, contradictory or oversized headers, bad chunking, stray bytes,
 * truncation. The same seed gives the same requests, so a failure can be replayed.
 */
public final class MalformedRequests {

    private static final String[] METHODS = {
        "GET",
        "GET",
        "GET",
        "HEAD",
        "POST",
        "PUT",
        "DELETE",
        "CONNECT",
        "OPTIONS",
        "TRACE",
        "PATCH",
        "get",
        "G\u00c9T",
        "",
        "PRI",
        "M-SEARCH"
    };
    private static final String[] VERSIONS = {
        "HTTP/1.1",
        "HTTP/1.1",
        "HTTP/1.1",
        "HTTP/1.0",
        "HTTP/0.9",
        "HTTP/2.0",
        "HTTP/1.2",
        "HTTP/1.1 x",
        "",
        "HTTP/x",
        "http/1.1",
        "HTTP/1.10"
    };
    private static final String[] TARGET_SUFFIXES = {
        "",
        "",
        "?",
        "?%",
        "?a=%zz",
        "%00",
        "%c0%af",
        "/../../etc/passwd",
        "?name[]=x&name[]=",
        "#frag",
        ";jsessionid=1",
        "?%%%",
        "//",
        "?a=b&a=c",
        "\u00e9",
        "%2e%2e/",
        "?x=" + "y".repeat(3000)
    };
    private static final String[] ODD_TARGETS = {"*", "http://evil.example/metrics", "evil.example:443", "", "metrics"};
    private static final String[] HEADERS = {
        "Content-Length: -1",
        "Content-Length: 99999999999999999999",
        "Content-Length: 5\r\nContent-Length: 6",
        "Content-Length: 3",
        "Transfer-Encoding: chunked",
        "Transfer-Encoding: gzip, chunked",
        "Transfer-Encoding: chunked\r\nContent-Length: 4",
        "Expect: 100-continue",
        "Expect: 200-ok",
        "Accept: application/json",
        "Accept: application/openmetrics-text; version=9",
        "Accept-Encoding: gzip;q=x",
        "Accept-Encoding: br, *",
        "Authorization: Basic !!!",
        "Authorization: Basic " + "QQ==".repeat(40),
        "Authorization: Bearer x",
        "NoColonHeader",
        "Space : before-colon",
        " leading: space",
        "X-Folded: a\r\n continued",
        "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__",
        "Connection: close",
        "Range: bytes=0-1,5-",
        "Host: a\r\nHost: b",
        "X-Huge: " + "h".repeat(20_000),
        "X-Binary: \u0000\u0001\u00ff",
        "Cookie: " + "c=1; ".repeat(500)
    };

    private final Random random;
    private final List<String> paths;

    public MalformedRequests(long seed, List<String> paths) {
        this.random = new Random(seed);
        this.paths = paths;
    }

    public byte[] next() {
        String eol = random.nextInt(8) == 0 ? "\n" : "\r\n";
        StringBuilder head = new StringBuilder();
        String method = pick(METHODS);
        String target = random.nextInt(10) == 0
                ? pick(ODD_TARGETS)
                : pick(paths.toArray(new String[0])) + pick(TARGET_SUFFIXES);
        String version = pick(VERSIONS);
        head.append(method).append(' ').append(target);
        if (!version.isEmpty()) {
            head.append(' ').append(version);
        }
        head.append(eol);
        if (random.nextInt(5) != 0) {
            head.append("Host: localhost").append(eol);
        }
        int headers = random.nextInt(4);
        boolean chunked = false;
        for (int i = 0; i < headers; i++) {
            String h = pick(HEADERS);
            chunked |= h.contains("chunked");
            head.append(h.replace("\r\n", eol)).append(eol);
        }
        head.append(eol);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        out.write(headBytes, 0, headBytes.length);
        if (chunked || random.nextInt(4) == 0) {
            String body =
                    chunked ? pick(new String[] {"zz\r\nabc\r\n0\r\n\r\n", "3\r\nab", "0\r\n\r\n", "-1\r\n"}) : "";
            byte[] b = body.getBytes(StandardCharsets.ISO_8859_1);
            out.write(b, 0, b.length);
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            out.write(noise, 0, noise.length);
        }
        byte[] request = out.toByteArray();
        int mutation = random.nextInt(10);
        if (mutation == 0 && request.length > 0) {
            for (int i = 0; i < 1 + random.nextInt(4); i++) {
                request[random.nextInt(request.length)] = (byte) random.nextInt(256);
            }
        } else if (mutation == 1 && request.length > 1) {
            request = java.util.Arrays.copyOf(request, random.nextInt(request.length));
        }
        return request;
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }
}
