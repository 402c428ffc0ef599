package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The alert and recording rules: valid, unit-tested both ways, and every alert points somewhere real. */
class AlertRulesTest {

    private static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");
    /** The checked-in files' runbookURLPattern: absolute, the compose example server's agent (render.sh). */
    private static final Pattern RUNBOOK =
            Pattern.compile("^" + Pattern.quote(Mixin.CHECKED_IN_RUNBOOKS) + "([a-z0-9-]+)$");
    /** How each runbook section states the alert's severity and why. */
    private static final Pattern SEVERITY_LINE = Pattern.compile("\\*\\*Severity: (critical|warning|info)\\*\\*");

    private static final Pattern DASHBOARD_URL = Pattern.compile(
            "^http://localhost:3000/d/([a-z0-9-]+)/[a-z0-9-]+\\?var-job=\\{\\{ \\$labels\\.job }}&var-instance=\\{\\{ \\$labels\\.instance }}&viewPanel=(\\d+)$");

    private final RuleFile alerts = RuleFile.alerts();
    private final RuleFile records = RuleFile.recordingRules();

    @ParameterizedTest(name = "{0}")
    @EnumSource(PrometheusVersion.class)
    void promtoolAcceptsTheRuleFiles(PrometheusVersion version) {
        Command.Result result =
                Promtool.run(version, ModulePaths.dashboards(), "check", "rules", "alerts.yml", "recording-rules.yml");
        assertTrue(result.ok(), result.output());
        assertTrue(result.output().contains("SUCCESS: " + alerts.rules().size() + " rules found"), result.output());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(PrometheusVersion.class)
    void promtoolUnitTestsPass(PrometheusVersion version) {
        Command.Result result =
                Promtool.run(version, ModulePaths.dashboards(), "test", "rules", "tests/alerts-test.yml");
        assertTrue(result.ok(), result.output());
        assertTrue(result.output().contains("SUCCESS"), result.output());
    }

    @Test
    void everyAlertIsUnitTestedFiringAndSilent() throws IOException {
        Set<String> fires = new HashSet<>();
        Set<String> silent = new HashSet<>();
        for (JsonNode test : unitTests().path("tests")) {
            for (JsonNode alertTest : test.path("alert_rule_test")) {
                // promtool compares the complete list, so an empty exp_alerts means "nothing fires here".
                boolean expectsAlerts = alertTest.path("exp_alerts").size() > 0;
                (expectsAlerts ? fires : silent).add(alertTest.path("alertname").asText());
            }
        }
        List<String> missing = new ArrayList<>();
        for (RuleFile.Rule alert : alerts.alertRules()) {
            if (!fires.contains(alert.name())) {
                missing.add(alert.name() + " has no unit test in which it fires");
            }
            if (!silent.contains(alert.name())) {
                missing.add(alert.name() + " has no unit test in which it stays silent");
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void aTargetDownIsAWarningNotAPage() {
        // The usual convention (kube-prometheus' TargetDown, node-mixin): a target that cannot be scraped
        // opens a ticket; what pages is the symptom the service's own alerts see.
        RuleFile.Rule scrape = alerts.alertRules().stream()
                .filter(r -> r.name().equals("BlockscopeScrapeFailing"))
                .findFirst()
                .orElseThrow();
        assertEquals("warning", scrape.labels().get("severity"));
    }

    @Test
    void everyRecordingRuleIsTested() throws IOException {
        Set<String> tested = new LinkedHashSet<>(NativeHistogramRulesIT.RULES_TESTED_THERE);
        for (JsonNode test : unitTests().path("tests")) {
            for (JsonNode exprTest : test.path("promql_expr_test")) {
                tested.addAll(PromQl.metricNames(exprTest.path("expr").asText()));
            }
        }
        Set<String> untested = new LinkedHashSet<>(records.recordedNames());
        untested.addAll(alerts.recordedNames());
        untested.removeAll(tested);
        assertEquals(
                Set.of(),
                untested,
                "recording rules without a promql_expr_test in tests/alerts-test.yml or a check in NativeHistogramRulesIT");
    }

    @Test
    void everyAlertHasSeveritySummaryDescriptionRunbookAndPanel() throws IOException {
        String runbooks = Files.readString(ModulePaths.docs().resolve("runbooks.md"));
        Set<String> anchors = MarkdownAnchors.of(runbooks);
        List<String> problems = new ArrayList<>();
        for (RuleFile.Rule alert : alerts.alertRules()) {
            String severity = alert.labels().get("severity");
            if (!SEVERITIES.contains(severity)) {
                problems.add(alert.name() + ": severity '" + severity + "' is not one of " + SEVERITIES);
            }
            for (String annotation : List.of("summary", "description", "runbook_url", "dashboard_url")) {
                if (alert.annotations().getOrDefault(annotation, "").isBlank()) {
                    problems.add(alert.name() + ": no " + annotation + " annotation");
                }
            }
            Matcher runbook = RUNBOOK.matcher(alert.annotations().getOrDefault("runbook_url", ""));
            if (!runbook.matches()) {
                problems.add(alert.name() + ": runbook_url must be " + RUNBOOK.pattern());
            } else if (!anchors.contains(runbook.group(1))) {
                problems.add(alert.name() + ": docs/runbooks.md has no section #" + runbook.group(1));
            } else if (!runbook.group(1).equals(alert.name().toLowerCase(Locale.ROOT))) {
                problems.add(alert.name() + ": runbook_url should point at its own section #"
                        + alert.name().toLowerCase(Locale.ROOT));
            } else {
                Matcher stated = SEVERITY_LINE.matcher(MarkdownAnchors.section(runbooks, runbook.group(1)));
                if (!stated.find()) {
                    problems.add(alert.name() + ": its runbook section does not state **Severity: ...**");
                } else if (!stated.group(1).equals(severity)) {
                    problems.add(
                            alert.name() + ": runbook says severity " + stated.group(1) + ", the rule " + severity);
                }
            }
            Matcher url = DASHBOARD_URL.matcher(alert.annotations().getOrDefault("dashboard_url", ""));
            if (!url.matches()) {
                problems.add(alert.name() + ": dashboard_url is not a per-server panel link with job and instance: "
                        + alert.annotations().get("dashboard_url"));
                continue;
            }
            GrafanaDashboard dashboard = GrafanaDashboard.all().stream()
                    .filter(d -> d.uid().equals(url.group(1)))
                    .findFirst()
                    .orElse(null);
            if (dashboard == null) {
                problems.add(alert.name() + ": dashboard_url names no dashboard with uid " + url.group(1));
            } else if (dashboard.panel(Integer.parseInt(url.group(2))) == null) {
                problems.add(alert.name() + ": dashboard " + url.group(1) + " has no panel " + url.group(2));
            } else if (!dashboard
                    .panel(Integer.parseInt(url.group(2)))
                    .path("description")
                    .asText()
                    .contains(alert.name())) {
                problems.add(alert.name() + ": panel " + url.group(2)
                        + " it links to does not mention the alert in its description");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void hotCopyPathRunbookGivesTheConfirmingCommands() throws IOException {
        String section = MarkdownAnchors.section(
                Files.readString(ModulePaths.docs().resolve("runbooks.md")), "blockscopehotcopypath");
        assertTrue(
                section.contains("jfr print --events blockscope.CopyToHeap"),
                "runbook must give the jfr print command");
        assertTrue(section.contains("-e alloc"), "runbook must give an async-profiler allocation profiling command");
        assertTrue(section.contains("Hottest copy sites"), "runbook must name the panel that confirms it");
    }

    @Test
    void aRenamedMetricMakesTheUnitTestsFail(@TempDir Path dir) throws IOException {
        // The unit tests feed the documented names; an alert that drifts to another name stops firing.
        Files.createDirectories(dir.resolve("tests"));
        Files.copy(ModulePaths.recordingRules(), dir.resolve("recording-rules.yml"));
        Files.copy(ModulePaths.dashboards().resolve("tests/alerts-test.yml"), dir.resolve("tests/alerts-test.yml"));
        String renamed = Files.readString(ModulePaths.alerts())
                .replace("blockscope_block_leaks_total", "blockscope_block_leak_total");
        Files.writeString(dir.resolve("alerts.yml"), renamed);

        Command.Result result = Promtool.run(dir, "test", "rules", "tests/alerts-test.yml");

        assertFalse(result.ok(), result.output());
        assertTrue(result.output().contains("alertname: BlockscopeBlockRefLeak"), result.output());
    }

    private static JsonNode unitTests() throws IOException {
        return RuleFile.YAML.readTree(
                ModulePaths.dashboards().resolve("tests/alerts-test.yml").toFile());
    }
}
