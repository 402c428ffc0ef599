package io.blockscope.exporter.http;

import io.blockscope.exporter.endpoint.EndpointKind;

/** {@link TlsTest} on the Netty endpoint (the one JDK 11 to 16 get): same requests, same answers. */
class TlsNettyTest extends TlsTest {

    @Override
    EndpointKind kind() {
        return EndpointKind.NETTY;
    }
}
