package io.blockscope.exporter.endpoint;

import io.blockscope.exporter.Log;
import io.blockscope.exporter.auth.AuthGate;
import io.blockscope.exporter.page.LivePage;
import io.blockscope.exporter.self.SelfMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The Netty endpoint's answers: the same decisions, in the same order, with the same statuses,
 * headers and bodies as the Jetty endpoint's {@code BasicAuthHandler} and {@code MetricsHandler}
 * ({@code EndpointTest} and {@code BasicAuthTest} run against both).
 */
@ChannelHandler.Sharable
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final String TEXT = "text/plain; charset=utf-8";

    private final PrometheusScrapeHandler scrapes;
    private final SelfMetrics self;
    private final AuthGate gate;
    private final LivePage page;

    /** @param gate the basic-auth check, or null when the endpoint is open */
    RequestHandler(PrometheusScrapeHandler scrapes, SelfMetrics self, AuthGate gate, LivePage page) {
        this.scrapes = scrapes;
        this.self = self;
        this.gate = gate;
        this.page = page;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        HttpResponseStatus refused = refusal(request);
        if (refused != null) {
            // As Jetty does: a request it cannot trust ends its connection.
            FullHttpResponse bad = plain(refused, refused.reasonPhrase() + "\n", false);
            HttpUtil.setKeepAlive(bad, false);
            ctx.writeAndFlush(bad).addListener(f -> ctx.close());
            return;
        }
        FullHttpResponse response = answer(request, RequestTarget.path(request.uri()), clientAddress(ctx));
        HttpUtil.setKeepAlive(response, HttpUtil.isKeepAlive(request));
        ctx.writeAndFlush(response);
    }

    /**
     * The status Jetty 12 gives a request it refuses before any handler sees it, or null: a request
     * too long to read, not HTTP/1.x, an HTTP/1.1 request without exactly one Host, an ambiguous target.
     */
    static HttpResponseStatus refusal(FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            Throwable cause = request.decoderResult().cause();
            if (cause instanceof TooLongHttpHeaderException) {
                return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
            }
            if (cause instanceof TooLongHttpLineException) {
                return HttpResponseStatus.REQUEST_URI_TOO_LONG;
            }
            return HttpResponseStatus.BAD_REQUEST;
        }
        HttpVersion version = request.protocolVersion();
        if (version.majorVersion() != 1) {
            return HttpResponseStatus.UPGRADE_REQUIRED;
        }
        if (version.minorVersion() >= 1
                && request.headers().getAll(HttpHeaderNames.HOST).size() != 1) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        if (RequestTarget.path(request.uri()) == null) {
            return HttpResponseStatus.BAD_REQUEST;
        }
        return null;
    }

    private static String clientAddress(ChannelHandlerContext ctx) {
        java.net.SocketAddress remote = ctx.channel().remoteAddress();
        return remote instanceof java.net.InetSocketAddress
                ? ((java.net.InetSocketAddress) remote).getAddress().getHostAddress()
                : String.valueOf(remote);
    }

    private FullHttpResponse answer(FullHttpRequest request, String path, String client) {
        boolean head = HttpMethod.HEAD.equals(request.method());
        if (gate != null && !Endpoint.HEALTHY.equals(path)) {
            AuthGate.Verdict verdict = gate.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), client);
            if (verdict == AuthGate.Verdict.THROTTLED) {
                FullHttpResponse r =
                        plain(HttpResponseStatus.TOO_MANY_REQUESTS, "Too many failed logins; retry later.\n", head);
                r.headers().set(HttpHeaderNames.RETRY_AFTER, gate.retryAfterSeconds(client));
                return r;
            }
            if (verdict != AuthGate.Verdict.ALLOWED) {
                FullHttpResponse r = plain(HttpResponseStatus.UNAUTHORIZED, "Unauthorized.\n", head);
                r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, AuthGate.CHALLENGE);
                return r;
            }
        }
        if (!head && !HttpMethod.GET.equals(request.method())) {
            FullHttpResponse r = plain(HttpResponseStatus.METHOD_NOT_ALLOWED, "Only GET and HEAD.\n", false);
            r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            return r;
        }
        switch (path) {
            case Endpoint.METRICS:
                return scrape(request, head);
            case Endpoint.HEALTHY:
                return plain(HttpResponseStatus.OK, "Exporter is healthy.\n", head);
            default:
                if (LivePage.serves(path)) {
                    return page(page.reply(path), head);
                }
                return plain(HttpResponseStatus.NOT_FOUND, "Not found: metrics are at /metrics\n", head);
        }
    }

    private FullHttpResponse scrape(FullHttpRequest request, boolean head) {
        long start = System.nanoTime();
        long cpuStart = self.scrapeCpuStart();
        NettyScrapeExchange exchange = new NettyScrapeExchange(request);
        try {
            scrapes.handleRequest(exchange);
        } catch (IOException e) {
            exchange.handleException(e);
        } catch (RuntimeException e) {
            exchange.handleException(e);
        }
        Exception failure = exchange.failure();
        if (failure != null) {
            Log.warnOnce("scrape-" + failure.getClass().getName(), "a scrape failed; Prometheus got a 500", failure);
            return plain(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Scrape failed: " + failure + "\n", head);
        }
        self.observeScrape(System.nanoTime() - start, cpuStart);
        return exchange.response(head);
    }

    private static FullHttpResponse page(LivePage.Reply reply, boolean head) {
        FullHttpResponse r =
                response(HttpResponseStatus.valueOf(reply.status()), reply.contentType(), reply.body(), head);
        reply.headers().forEach((name, value) -> r.headers().set(name, value));
        return r;
    }

    static FullHttpResponse plain(HttpResponseStatus status, String text, boolean head) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        return response(status, TEXT, body, head);
    }

    /** A complete response; for HEAD the length the body would have, and no body. */
    static FullHttpResponse response(HttpResponseStatus status, String contentType, byte[] body, boolean head) {
        ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        if (contentType != null) {
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return r;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            ctx.close(); // an idle keep-alive connection, as Jetty's idle timeout closes it
        } else {
            super.userEventTriggered(ctx, event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A scraper that hung up, a failed TLS handshake, a malformed request: that connection ends,
        // nothing else is affected, and nothing is worth a line in the host's log.
        ctx.close();
    }
}
