package io.blockscope.exporter.http;

import io.blockscope.exporter.endpoint.EndpointKind;

/** {@link ConcurrentScrapeTest} on the Netty endpoint (the one JDK 11 to 16 get). */
class ConcurrentScrapeNettyTest extends ConcurrentScrapeTest {

    @Override
    EndpointKind kind() {
        return EndpointKind.NETTY;
    }
}
