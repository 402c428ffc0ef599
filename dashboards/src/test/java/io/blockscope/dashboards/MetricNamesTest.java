package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every series a dashboard or rule reads is in the metric names contract (docs/metrics.md), a standard
 * {@code jvm_*} series, a series Prometheus makes, or one of our recording rules. A renamed metric fails.
 */
class MetricNamesTest {

    /** Queries inside alert templates: {{ with printf "expr" ... | query }}. */
    private static final Pattern TEMPLATE_QUERY =
            Pattern.compile("printf\\s+\"((?:[^\"\\\\]|\\\\.)*)\"[^}]*\\|\\s*query");

    @Test
    void everyReferencedMetricIsInTheContract() {
        assertEquals(List.of(), unknownNames(expressions(GrafanaDashboard.all()), MetricsContract.fromDocs()));
    }

    @Test
    void theContractIsReadable() {
        Map<String, String> types = MetricsContract.fromDocs().types();
        // Spot-check that the parser reads the tables (names and types), not that they hold given rows.
        assertFalse(types.isEmpty());
        types.forEach((name, type) -> assertFalse(type.isBlank(), name + " has no type"));
    }

    @Test
    void aRenamedMetricInADashboardIsReported(@TempDir Path dir) throws IOException {
        String original = Files.readString(ModulePaths.serverDashboard());
        String renamed = original.replace("blockscope_copy_site_bytes_total", "blockscope_copy_site_byte_total");
        Path file = dir.resolve("offheap-read-path.json");
        Files.writeString(file, renamed);

        List<String> unknown =
                unknownNames(expressions(List.of(GrafanaDashboard.read(file))), MetricsContract.fromDocs());

        assertFalse(unknown.isEmpty());
        assertEquals(
                List.of("offheap-read-path.json panel 33 (Hottest copy sites) A: blockscope_copy_site_byte_total"),
                unknown);
    }

    @Test
    void aMetricDroppedFromTheContractIsReported(@TempDir Path dir) throws IOException {
        String metricsMd = Files.readString(ModulePaths.docs().resolve("metrics.md"));
        Path edited = dir.resolve("metrics.md");
        Files.writeString(edited, metricsMd.replaceAll("(?m)^\\| `blockscope_read_path_mode` \\|.*$", ""));

        List<String> unknown = unknownNames(expressions(GrafanaDashboard.all()), MetricsContract.read(edited));

        assertFalse(unknown.isEmpty());
        unknown.forEach(u -> assertEquals("blockscope_read_path_mode", u.substring(u.lastIndexOf(": ") + 2), u));
    }

    /** Every expression of the given dashboards and of both rule files, keyed by where it comes from. */
    static Map<String, String> expressions(List<GrafanaDashboard> dashboards) {
        Map<String, String> expressions = new LinkedHashMap<>();
        for (GrafanaDashboard dashboard : dashboards) {
            for (GrafanaDashboard.Query query : dashboard.queries()) {
                expressions.put(query.where(), query.expr());
            }
        }
        for (RuleFile file : List.of(RuleFile.recordingRules(), RuleFile.alerts())) {
            for (RuleFile.Rule rule : file.rules()) {
                expressions.put(file.path().getFileName() + " " + rule.name(), rule.expr());
                rule.annotations().forEach((key, template) -> {
                    Matcher m = TEMPLATE_QUERY.matcher(template);
                    while (m.find()) {
                        expressions.put(
                                file.path().getFileName() + " " + rule.name() + " annotation " + key, m.group(1));
                    }
                });
            }
        }
        return expressions;
    }

    static List<String> unknownNames(Map<String, String> expressions, MetricsContract contract) {
        // alerts.yml records the leak sum in its own group, right before the alert that reads it.
        Set<String> records =
                new java.util.LinkedHashSet<>(RuleFile.recordingRules().recordedNames());
        records.addAll(RuleFile.alerts().recordedNames());
        List<String> unknown = new ArrayList<>();
        expressions.forEach((where, expr) -> {
            for (String name : PromQl.metricNames(expr)) {
                if (!contract.allows(name, records)) {
                    unknown.add(where + ": " + name);
                }
            }
        });
        return unknown;
    }
}
