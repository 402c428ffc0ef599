package io.blockscope.exporter.http;

import io.blockscope.exporter.endpoint.EndpointKind;

/** {@link BasicAuthTest} on the Netty endpoint (the one JDK 11 to 16 get): same requests, same answers. */
class BasicAuthNettyTest extends BasicAuthTest {

    @Override
    EndpointKind kind() {
        return EndpointKind.NETTY;
    }
}
