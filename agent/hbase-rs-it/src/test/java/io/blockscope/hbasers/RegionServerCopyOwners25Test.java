package io.blockscope.hbasers;

import io.blockscope.exporter.testing.TestJdks;

/**
 * {@link RegionServerCopyOwnersTest} on HBase 2.5.11 (hadoop3 build, JDK 11 as {@code
 * RegionServerReleasesTest} runs it): the same call, region-operation and compaction methods.
 */
class RegionServerCopyOwners25Test extends RegionServerCopyOwnersTest {

    @Override
    String name() {
        return "2.5.11";
    }

    @Override
    RegionServerProcess.Builder release() throws Exception {
        return RegionServerProcess.builder()
                .hbaseClassPath(ReleaseClassPath.of("2.5.11-hadoop3"))
                .java(TestJdks.require(11));
    }
}
