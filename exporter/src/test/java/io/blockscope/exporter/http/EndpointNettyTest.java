package io.blockscope.exporter.http;

import io.blockscope.exporter.endpoint.EndpointKind;

/** {@link EndpointTest} on the Netty endpoint (the one JDK 11 to 16 get): same requests, same answers. */
class EndpointNettyTest extends EndpointTest {

    @Override
    EndpointKind kind() {
        return EndpointKind.NETTY;
    }
}
