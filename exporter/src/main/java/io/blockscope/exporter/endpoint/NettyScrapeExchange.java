package io.blockscope.exporter.endpoint;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

/**
 * Presents one aggregated Netty request to client_java's {@code PrometheusScrapeHandler}, and
 * collects its answer into one response. The twin of the Jetty endpoint's {@code JettyExchange},
 * with the same compression (gzip at {@link Deflater#BEST_SPEED}, done here, not by the handler).
 */
final class NettyScrapeExchange extends ScrapeExchange {

    private final FullHttpRequest request;
    private final boolean gzip;
    private final HttpHeaders headers = new DefaultHttpHeaders();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private int status = 500;

    NettyScrapeExchange(FullHttpRequest request) {
        this.request = request;
        this.gzip = acceptsGzip(request.headers().getAll(HttpHeaderNames.ACCEPT_ENCODING));
    }

    /** Whether any {@code Accept-Encoding} value accepts gzip (a {@code q=0} refuses it). */
    static boolean acceptsGzip(List<String> values) {
        for (String header : values) {
            for (String coding : header.split(",")) {
                String c = coding.trim();
                int semicolon = c.indexOf(';');
                String name = semicolon < 0 ? c : c.substring(0, semicolon).trim();
                if (name.equalsIgnoreCase("gzip")) {
                    return semicolon < 0
                            || !c.substring(semicolon).replace(" ", "").matches(";q=0(\\.0*)?");
                }
            }
        }
        return false;
    }

    @Override
    public PrometheusHttpRequest getRequest() {
        return new PrometheusHttpRequest() {
            @Override
            public String getQueryString() {
                String uri = request.uri();
                int q = uri.indexOf('?');
                if (q < 0) {
                    return null;
                }
                int hash = uri.indexOf('#', q);
                return hash < 0 ? uri.substring(q + 1) : uri.substring(q + 1, hash);
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                if (HttpHeaderNames.ACCEPT_ENCODING.contentEqualsIgnoreCase(name)) {
                    return Collections.emptyEnumeration(); // compression is ours, see the class comment
                }
                return Collections.enumeration(request.headers().getAll(name));
            }

            @Override
            public String getMethod() {
                return request.method().name();
            }

            @Override
            public String getRequestPath() {
                return RequestTarget.path(request.uri());
            }
        };
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return new PrometheusHttpResponse() {
            @Override
            public void setHeader(String name, String value) {
                // The length is set at the end, once the (maybe compressed) body is complete.
                if (!HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) {
                    headers.set(name, value);
                }
            }

            @Override
            public OutputStream sendHeadersAndGetBody(int statusCode, int contentLength) throws IOException {
                status = statusCode;
                headers.set(HttpHeaderNames.VARY, "Accept-Encoding");
                if (gzip && contentLength != -1) {
                    headers.set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
                    body = fastGzip(buffer);
                } else {
                    body = buffer;
                }
                return body;
            }
        };
    }

    /** The collected answer; for HEAD, its headers and length without the body. */
    FullHttpResponse response(boolean head) {
        close();
        FullHttpResponse r =
                RequestHandler.response(HttpResponseStatus.valueOf(status), null, buffer.toByteArray(), head);
        for (Map.Entry<String, String> h : headers) {
            r.headers().set(h.getKey(), h.getValue());
        }
        return r;
    }
}
