package io.blockscope.hbasers;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.hbasers.FindingsPage.Finding;
import java.io.IOException;
import java.util.List;

/**
 * {@link RegionServerFindingsTest} on HBase 2.4.18 (its own hbase-endpoint, JDK 11
 * as {@code RegionServerReleasesTest} runs it): the 2.4 line's copies are 2.6.4's (its classes differ in comments, style
 * and line numbers), so every law must hold; the page gives 2.4.18's own source lines.
 */
class RegionServerFindings24Test extends RegionServerFindingsTest {

    static final String RELEASE = "2.4.18";

    @Override
    RegionServerProcess.Builder release() throws Exception {
        return RegionServerProcess.builder()
                .hbaseClassPath(ReleaseClassPath.of("2.4.18"))
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
