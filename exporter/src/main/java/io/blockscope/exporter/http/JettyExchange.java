package io.blockscope.exporter.http;

import io.blockscope.exporter.endpoint.ScrapeExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.Enumeration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * Presents one Jetty core request/response pair to client_java's {@code PrometheusScrapeHandler},
 * which does content negotiation and {@code name[]} filtering. Lighter than the servlet exporter:
 * no servlet API and no ee10 container in the agent jar.
 *
 * <p>Compression is done here rather than by the handler: Prometheus asks for gzip on every
 * scrape, and at {@link Deflater#BEST_SPEED} a scrape compresses about three times faster than at
 * the handler's default level, for a response some 15% larger.
 */
final class JettyExchange extends ScrapeExchange {

    private final Request request;
    private final Response response;
    private final boolean gzip;

    JettyExchange(Request request, Response response) {
        this.request = request;
        this.response = response;
        this.gzip = acceptsGzip(request);
    }

    private static boolean acceptsGzip(Request request) {
        for (String header : request.getHeaders().getValuesList(HttpHeader.ACCEPT_ENCODING)) {
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
                return request.getHttpURI().getQuery();
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                if (HttpHeader.ACCEPT_ENCODING.is(name)) {
                    return Collections.emptyEnumeration(); // compression is ours, see the class comment
                }
                return request.getHeaders().getValues(name);
            }

            @Override
            public String getMethod() {
                return request.getMethod();
            }

            @Override
            public String getRequestPath() {
                return Request.getPathInContext(request);
            }
        };
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return new PrometheusHttpResponse() {
            @Override
            public void setHeader(String name, String value) {
                // The length is set below, once we know whether the body is compressed.
                if (!HttpHeader.CONTENT_LENGTH.is(name)) {
                    response.getHeaders().put(name, value);
                }
            }

            /** Content length as client_java means it: > 0 known, 0 unknown (chunked), -1 no body. */
            @Override
            public OutputStream sendHeadersAndGetBody(int statusCode, int contentLength) throws IOException {
                response.setStatus(statusCode);
                response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
                // Buffered, so that small writes do not each become a socket write.
                body = Response.asBufferedOutputStream(request, response);
                if (gzip && contentLength != -1) {
                    response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
                    body = fastGzip(body);
                } else if (contentLength > 0) {
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, contentLength);
                }
                return body;
            }
        };
    }
}
