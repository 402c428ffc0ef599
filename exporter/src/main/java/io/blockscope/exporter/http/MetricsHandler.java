package io.blockscope.exporter.http;

import io.blockscope.exporter.Log;
import io.blockscope.exporter.page.LivePage;
import io.blockscope.exporter.self.SelfMetrics;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves {@code /metrics} (text 0.0.4, OpenMetrics or protobuf by the Accept header; gzip when
 * asked), {@code /-/healthy}, and the live page at {@code /} ({@link LivePage}). Only GET and HEAD.
 */
final class MetricsHandler extends Handler.Abstract {

    static final String METRICS = "/metrics";
    static final String HEALTHY = "/-/healthy";

    private final PrometheusScrapeHandler scrapes;
    private final SelfMetrics self;
    private final LivePage page;

    MetricsHandler(PrometheusRegistry registry, PrometheusProperties properties, SelfMetrics self) {
        // Scrape writing blocks on the socket, so Jetty must call us on a pool thread.
        super(InvocationType.BLOCKING);
        this.scrapes = new PrometheusScrapeHandler(properties, registry);
        this.self = self;
        this.page = new LivePage(registry);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            return plain(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "Only GET and HEAD.\n");
        }
        switch (path) {
            case METRICS:
                scrape(request, response, callback);
                return true;
            case HEALTHY:
                return plain(response, callback, HttpStatus.OK_200, "Exporter is healthy.\n");
            default:
                if (LivePage.serves(path)) {
                    return page(page.reply(path), response, callback);
                }
                return plain(response, callback, HttpStatus.NOT_FOUND_404, "Not found: metrics are at /metrics\n");
        }
    }

    private void scrape(Request request, Response response, Callback callback) {
        long start = System.nanoTime();
        long cpuStart = self.scrapeCpuStart();
        JettyExchange exchange = new JettyExchange(request, response);
        try {
            scrapes.handleRequest(exchange);
        } catch (IOException e) {
            // handleRequest reports its own failures through the exchange; these escaped it
            exchange.handleException(e);
        } catch (RuntimeException e) {
            exchange.handleException(e);
        }
        Exception failure = exchange.failure();
        if (failure == null) {
            self.observeScrape(System.nanoTime() - start, cpuStart);
            callback.succeeded();
        } else if (!response.isCommitted()) {
            Log.warnOnce("scrape-" + failure.getClass().getName(), "a scrape failed; Prometheus got a 500", failure);
            response.reset();
            plain(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "Scrape failed: " + failure + "\n");
        } else {
            // Usually the scraper hung up mid-response: nothing to tell it, nothing to log loudly.
            callback.failed(failure);
        }
    }

    private static boolean page(LivePage.Reply reply, Response response, Callback callback) {
        response.setStatus(reply.status());
        reply.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
        response.write(true, ByteBuffer.wrap(reply.body()), callback);
        return true;
    }

    static boolean plain(Response response, Callback callback, int status, String text) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
