package io.blockscope.hbasers;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.hbasers.FindingsPage.Finding;
import java.io.IOException;
import java.util.List;

/**
 * {@link RegionServerFindingsTest} on an older release line (its own class path and hbase-endpoint,
 * JDK 11 as {@code RegionServerReleasesTest} runs it): every law must hold with the same bytes, at the
 * release's own source lines, which docs/hbase-findings-on-RELEASE.md gives ({@link ReleaseFindingsPage}).
 * 2.4's and 2.5's AggregateImplementation keep no partial results and copy no row key.
 */
abstract class OlderReleaseFindings extends RegionServerFindingsTest {

    private final String release;
    private final String classPath;

    OlderReleaseFindings(String release, String classPath) {
        this.release = release;
        this.classPath = classPath;
    }

    @Override
    RegionServerProcess.Builder release() throws Exception {
        return RegionServerProcess.builder()
                .hbaseClassPath(ReleaseClassPath.of(classPath))
                .java(TestJdks.require(11));
    }

    @Override
    boolean endpointCopiesRows() {
        return false;
    }

    @Override
    void check(List<Finding> measured) throws IOException {
        new ReleaseFindingsPage(release, getClass(), measured).check(RegionServerFeaturesTest.repository());
    }
}
