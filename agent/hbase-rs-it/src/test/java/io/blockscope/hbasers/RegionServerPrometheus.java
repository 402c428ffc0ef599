package io.blockscope.hbasers;

import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The Prometheus the RegionServer tests run (Debian's, installed by .ci/test): one job {@value #JOB}
 * scraping the RegionServer's agent every second, the shipped rule files loaded, native histograms on.
 * Same setup as the dashboards module's end-to-end tests.
 */
final class RegionServerPrometheus {

    static final String JOB = "blockscope-hbase";

    private RegionServerPrometheus() {}

    /** The shipped rule files: dashboards/recording-rules.yml and dashboards/alerts.yml. */
    static List<Path> shippedRules() {
        Path dashboards = Path.of(RegionServerProcess.required("blockscope.dashboards"));
        return List.of(dashboards.resolve("recording-rules.yml"), dashboards.resolve("alerts.yml"));
    }

    /** Scrapes {@code target} ({@code host:port}) as job {@value #JOB}, keeping its files in {@code dir}. */
    static PrometheusServer start(Path dir, String target) throws IOException, InterruptedException {
        return PrometheusSetup.in(dir)
                .job(JOB)
                .target(target)
                .ruleFiles(shippedRules())
                .start();
    }
}
