package io.blockscope.exporter.page;

import io.blockscope.exporter.endpoint.EndpointKind;

/** {@link LivePageEndpointTest} on the Netty endpoint (JDK 11 to 16): the same page, auth and TLS. */
class LivePageNettyTest extends LivePageEndpointTest {

    @Override
    EndpointKind kind() {
        return EndpointKind.NETTY;
    }
}
