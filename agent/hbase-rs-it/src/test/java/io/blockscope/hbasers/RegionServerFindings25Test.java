package io.blockscope.hbasers;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.hbasers.FindingsPage.Finding;
import java.io.IOException;
import java.util.List;

/**
 * {@link RegionServerFindingsTest} on HBase 2.5.11 (hadoop3 build, its own hbase-endpoint, JDK 11
 * as {@code RegionServerReleasesTest} runs it): the 2.5 line's source of every finding's class is
 * 2.6.4's, so every law must hold; the page gives 2.5.11's own source lines.
 */
class RegionServerFindings25Test extends RegionServerFindingsTest {

    static final String RELEASE = "2.5.11";

    @Override
    RegionServerProcess.Builder release() throws Exception {
        return RegionServerProcess.builder()
                .hbaseClassPath(ReleaseClassPath.of("2.5.11-hadoop3"))
                .java(TestJdks.require(11));
    }

    @Override
    boolean endpointCopiesRows() {
        return false;
    }

    @Override
    void check(List<Finding> measured) throws IOException {
        new ReleaseFindingsPage(RELEASE, getClass(), measured).check(RegionServerFeaturesTest.repository());
    }
}
