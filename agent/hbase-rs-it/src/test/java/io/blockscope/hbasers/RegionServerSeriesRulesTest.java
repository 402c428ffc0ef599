package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.testsupport.Command;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed capture of a real RegionServer's series (regionserver-series.yml, written by
 * {@link RegionServerAgentTest}) is valid promtool input, and the shipped rules read it as they read
 * the live server: no probe reported as skipped, a zero-copy read path, the copying filter as a copy
 * site with a rate, and the hot-copy recording rule above the alert's 4 MiB/s threshold at the end.
 */
class RegionServerSeriesRulesTest {

    @Test
    void theShippedRulesReadTheCapturedRegionServerSeries(@TempDir Path dir) throws Exception {
        Path capture = Path.of(RegionServerSeriesRulesTest.class
                .getResource("/regionserver-series.yml")
                .toURI());
        List<String> input = Files.readAllLines(capture);
        List<Path> rules = RegionServerPrometheus.shippedRules();
        String at = "31s"; // the capture's last sample (32 samples, 1 s apart)
        StringBuilder test = new StringBuilder()
                .append("rule_files:\n")
                .append("  - ")
                .append(rules.get(0))
                .append("\n  - ")
                .append(rules.get(1))
                .append("\nevaluation_interval: 1s\ntests:\n  - ");
        boolean first = true;
        for (String line : input) {
            if (line.startsWith("#")) {
                continue;
            }
            test.append(first ? "" : "    ").append(line).append('\n');
            first = false;
        }
        test.append("    promql_expr_test:\n")
                .append("      - expr: blockscope_agent_probe_enabled == 0\n")
                .append("        eval_time: ")
                .append(at)
                .append("\n        exp_samples: []\n")
                .append("      - expr: blockscope_read_path_mode\n")
                .append("        eval_time: ")
                .append(at)
                .append("\n        exp_samples:\n")
                .append("          - labels: 'blockscope_read_path_mode{instance=\"")
                .append(SeriesCapture.INSTANCE)
                .append("\",job=\"")
                .append(RegionServerPrometheus.JOB)
                .append("\",mode=\"zero-copy\"}'\n            value: 1\n")
                .append(
                        "      - expr: count(instance_site:blockscope_copy_site_bytes:rate1m{site=~\".*CopyingValueFilter")
                .append(".filterCell.*\"} > 0)\n        eval_time: ")
                .append(at)
                .append("\n        exp_samples:\n          - labels: '{}'\n            value: 1\n")
                .append("      - expr: count(instance:blockscope_copy_to_heap_bytes:rate1m > 4 * 1024 * 1024)\n")
                .append("        eval_time: ")
                .append(at)
                .append("\n        exp_samples:\n          - labels: '{}'\n            value: 1\n");
        Path file = dir.resolve("regionserver-test.yml");
        Files.writeString(file, test);
        Command.Result promtool = Command.run(
                List.of(promtool().toString(), "test", "rules", file.toString()), null, Duration.ofSeconds(60));
        assertEquals(0, promtool.exitCode(), "promtool test rules " + file + ":\n" + promtool.output());
    }

    private static Path promtool() throws IOException {
        Path prometheus = PrometheusSetup.onPath("prometheus");
        Path promtool = prometheus.resolveSibling("promtool");
        if (!Files.isExecutable(promtool)) {
            throw new IllegalStateException(
                    "promtool not found next to " + prometheus + ": install Debian's prometheus package");
        }
        return promtool;
    }
}
