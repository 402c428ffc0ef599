/**
 * The client side of {@code bash .ci/demo hbase}: hbase-client reads against the standalone RegionServer
 * that {@link io.blockscope.hbasers.RegionServerMain} started, healthy or through the server-side
 * mistakes of {@link io.blockscope.hbasers.server} (a copying filter, a leaking coprocessor).
 */
package io.blockscope.hbasers.demo;
