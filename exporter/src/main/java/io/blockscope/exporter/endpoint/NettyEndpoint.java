package io.blockscope.exporter.endpoint;

import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.self.SelfMetrics;
import io.blockscope.exporter.tls.TlsMaterial;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The endpoint on Netty, for JDK 11 to 16, where Jetty 12 cannot load. It answers like the Jetty
 * one (see {@link RequestHandler}), with the same TLS material and hashed basic auth.
 *
 * <p>Made to sit in someone else's JVM: every thread is a daemon; of the {@code threads} threads,
 * one accepts and does the socket I/O, and scrapes (which render and compress) run on the others; buffers are unpooled heap buffers, so the endpoint takes no direct memory from
 * a host whose block cache lives there; TLS is the JDK's own provider.
 */
final class NettyEndpoint implements Endpoint {

    /** Same as the Jetty connector's idle timeout. */
    private static final long IDLE_TIMEOUT_SECONDS = 30;
    /** Jetty's default request header size (request line and headers): the same requests fit. */
    private static final int MAX_INITIAL_LINE = 8192;

    private static final int MAX_HEADERS = 8192;
    private static final int MAX_CONTENT = 16384;
    private static final long QUIET_PERIOD_MS = 0;
    private static final long SHUTDOWN_TIMEOUT_MS = 2000;

    private final Channel channel;
    private final EventLoopGroup io;
    private final EventExecutorGroup scrapes;

    private NettyEndpoint(Channel channel, EventLoopGroup io, EventExecutorGroup scrapes) {
        this.channel = channel;
        this.io = io;
        this.scrapes = scrapes;
    }

    static NettyEndpoint start(
            ExporterConfig config, PrometheusRegistry registry, PrometheusProperties properties, SelfMetrics self)
            throws Exception {
        InetSocketAddress address = config.host() == null
                ? new InetSocketAddress(config.port())
                : new InetSocketAddress(config.host(), config.port());
        if (address.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        SslContext ssl = config.tls() == null ? null : sslContext(config.tls());
        RequestHandler handler = new RequestHandler(
                new PrometheusScrapeHandler(properties, registry),
                self,
                config.credentials() == null ? null : new io.blockscope.exporter.auth.AuthGate(config.credentials()),
                new io.blockscope.exporter.page.LivePage(registry));
        EventLoopGroup io = new NioEventLoopGroup(1, new DefaultThreadFactory("blockscope-exporter-io", true));
        // threads in all, as on Jetty: one for I/O and accepting, the others for scrapes
        EventExecutorGroup scrapes = new DefaultEventExecutorGroup(
                config.threads() - 1, new DefaultThreadFactory("blockscope-exporter", true));
        ByteBufAllocator heap = new UnpooledByteBufAllocator(false);
        try {
            Channel channel = new ServerBootstrap()
                    .group(io)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, heap)
                    .childOption(ChannelOption.ALLOCATOR, heap)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ChannelPipeline p = ch.pipeline();
                            if (ssl != null) {
                                p.addLast(ssl.newHandler(ch.alloc()));
                            }
                            p.addLast(new IdleStateHandler(0, 0, IDLE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
                            p.addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, MAX_CONTENT));
                            p.addLast(new HttpServerKeepAliveHandler());
                            p.addLast(new HttpObjectAggregator(MAX_CONTENT));
                            p.addLast(scrapes, handler);
                        }
                    })
                    .bind(address)
                    .sync()
                    .channel();
            return new NettyEndpoint(channel, io, scrapes);
        } catch (Exception | Error e) {
            shutdown(io, scrapes);
            throw e;
        }
    }

    private static SslContext sslContext(TlsMaterial tls) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(tls.keyStore(), tls.keyPassword());
        SslContextBuilder builder = SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK);
        if (tls.clientTrustStore() != null) {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(tls.clientTrustStore());
            builder.trustManager(trust).clientAuth(ClientAuth.REQUIRE);
        }
        return builder.build();
    }

    @Override
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        shutdown(io, scrapes);
    }

    private static void shutdown(EventLoopGroup io, EventExecutorGroup scrapes) {
        scrapes.shutdownGracefully(QUIET_PERIOD_MS, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        io.shutdownGracefully(QUIET_PERIOD_MS, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
}
