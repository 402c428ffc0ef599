package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Structural rules for the dashboard JSON that Grafana itself would not enforce. */
class DashboardStructureTest {

    static final String SERVER_UID = "blockscope-offheap";
    static final String FLEET_UID = "blockscope-fleet";
    /** Grafana unit ids: bytes (IEC), bytes/s (IEC), seconds, ops/s, 0..1 as percent, plain numbers, text. */
    private static final Set<String> UNITS =
            Set.of("bytes", "binBps", "s", "ops", "percentunit", "short", "none", "string");

    private static final Map<String, String> PROMETHEUS_DATASOURCE =
            Map.of("type", "prometheus", "uid", "${datasource}");
    private static final Pattern GC_NATIVE_QUANTILE = Pattern.compile(
            "histogram_quantile\\(0\\.99, sum by \\([a-z_, ]+\\) \\(rate\\(blockscope_gc_pause_seconds\\{[^}]*}\\[\\$__rate_interval]\\)\\)\\)");

    static List<GrafanaDashboard> dashboards() {
        return GrafanaDashboard.all();
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void identityTagsAndLinks(GrafanaDashboard d) {
        List<String> problems = new ArrayList<>();
        check(problems, d.root().path("id").isNull(), "id must be null so the JSON imports into any Grafana");
        check(problems, Set.of(SERVER_UID, FLEET_UID).contains(d.uid()), "unexpected uid " + d.uid());
        check(problems, !d.root().path("title").asText().isBlank(), "no title");
        check(problems, !d.root().path("description").asText().isBlank(), "no dashboard description");
        check(problems, d.root().path("schemaVersion").asInt() >= 39, "schemaVersion below 39 (Grafana 11)");
        check(problems, contains(d.root().path("tags"), "blockscope"), "not tagged blockscope");
        boolean linksSiblings = false;
        for (JsonNode link : d.root().path("links")) {
            linksSiblings |= "dashboards".equals(link.path("type").asText())
                    && contains(link.path("tags"), "blockscope")
                    && link.path("includeVars").asBoolean()
                    && link.path("keepTime").asBoolean();
        }
        check(
                problems,
                linksSiblings,
                "no dashboards link to the other blockscope dashboards keeping variables and time");
        assertEquals(List.of(), problems, d.fileName());
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void variablesAreDatasourceJobInstanceChained(GrafanaDashboard d) {
        List<String> problems = new ArrayList<>();
        JsonNode datasource = d.variable("datasource");
        check(
                problems,
                datasource != null
                        && "datasource".equals(datasource.path("type").asText())
                        && "prometheus".equals(datasource.path("query").asText()),
                "no datasource variable of type prometheus");
        JsonNode job = d.variable("job");
        JsonNode instance = d.variable("instance");
        boolean fleet = d.uid().equals(FLEET_UID);
        if (fleet) {
            // the fleet's stats and tables read per-job rules, which an instance filter could not narrow
            check(problems, job != null && instance == null, "the fleet view is chosen by job, not by instance");
        } else {
            check(problems, job != null && instance != null, "job and instance variables are required");
        }
        List<JsonNode> chosen = new ArrayList<>();
        if (job != null) {
            chosen.add(job);
        }
        if (instance != null && !fleet) {
            chosen.add(instance);
        }
        for (JsonNode v : chosen) {
            check(
                    problems,
                    "query".equals(v.path("type").asText()),
                    "$" + v.path("name").asText() + " is not a query variable");
            check(
                    problems,
                    PROMETHEUS_DATASOURCE.equals(datasourceOf(v)),
                    "$" + v.path("name").asText() + " does not query ${datasource}");
            check(
                    problems,
                    v.path("refresh").asInt() == 2,
                    "$" + v.path("name").asText() + " must refresh on time range change");
        }
        if (job != null) {
            check(
                    problems,
                    "job".equals(GrafanaDashboard.labelValuesLabel(GrafanaDashboard.variableQuery(job))),
                    "$job does not list job label values");
        }
        if (instance != null && !fleet) {
            String instanceQuery = GrafanaDashboard.variableQuery(instance);
            check(
                    problems,
                    "instance".equals(GrafanaDashboard.labelValuesLabel(instanceQuery)),
                    "$instance does not list instance label values");
            check(
                    problems,
                    PromQl.selectors(GrafanaDashboard.labelValuesSelector(instanceQuery)).stream()
                            .anyMatch(s ->
                                    s.matchers().contains("job") && s.matchers().contains("\"$job\"")),
                    "$instance is not chained to $job");
        }
        assertEquals(List.of(), problems, d.fileName());
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void jobVariableListsOnlyBlockscopeTargetsAndAllMeansThem(GrafanaDashboard d) {
        // "All" must not widen to .* : a fleet count of up{job=~".*"} counts every target of every job.
        JsonNode job = d.variable("job");
        String selector = GrafanaDashboard.labelValuesSelector(GrafanaDashboard.variableQuery(job));
        assertTrue(
                selector.startsWith("blockscope_exporter_build_info{") && selector.contains("job=~\"blockscope.*\""),
                d.fileName() + ": $job must list the _config job's targets that export blockscope: " + selector);
        assertTrue(
                !job.has("allValue") || job.path("allValue").isNull(),
                d.fileName() + ": $job's All must be the listed jobs, not " + job.path("allValue"));
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void panelsHaveUniqueIdsDescriptionsUnitsAndTheDatasourceVariable(GrafanaDashboard d) {
        List<String> problems = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : d.panels()) {
            int id = panel.path("id").asInt(-1);
            check(problems, id > 0 && ids.add(id), "panel id " + id + " is missing or not unique");
        }
        for (JsonNode panel : d.dataPanels()) {
            String name = "panel " + panel.path("id").asInt() + " ("
                    + panel.path("title").asText() + ")";
            check(problems, !panel.path("title").asText().isBlank(), name + ": no title");
            check(
                    problems,
                    panel.path("description").asText().contains("Healthy"),
                    name + ": description must say what healthy looks like (\"Healthy: ...\")");
            check(
                    problems,
                    PROMETHEUS_DATASOURCE.equals(datasourceOf(panel)),
                    name + ": datasource must be {type: prometheus, uid: ${datasource}}");
            Set<String> units = panelUnits(panel);
            check(
                    problems,
                    UNITS.containsAll(units)
                            && !panel.path("fieldConfig")
                                    .path("defaults")
                                    .path("unit")
                                    .asText()
                                    .isBlank(),
                    name + ": units " + units + " must be set and among " + UNITS);
            check(
                    problems,
                    !panel.has("repeat"),
                    name + ": repeats one panel per value; keep panels fixed so large fleets stay fast");
            Set<String> refIds = new HashSet<>();
            check(problems, panel.path("targets").size() > 0, name + ": no queries");
            for (JsonNode target : panel.path("targets")) {
                String refId = target.path("refId").asText();
                check(
                        problems,
                        !refId.isBlank() && refIds.add(refId),
                        name + ": refId '" + refId + "' missing or repeated");
                check(
                        problems,
                        PROMETHEUS_DATASOURCE.equals(datasourceOf(target)),
                        name + " " + refId + ": query datasource must be ${datasource}");
                check(problems, !target.path("expr").asText().isBlank(), name + " " + refId + ": empty expression");
                expectedUnit(target.path("expr").asText())
                        .ifPresent(unit -> check(
                                problems,
                                units.contains(unit),
                                name + " " + refId + ": the expression measures '" + unit
                                        + "' but the panel's units are " + units));
            }
        }
        assertEquals(List.of(), problems, d.fileName());
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void panelsFitTheGridWithoutOverlapping(GrafanaDashboard d) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> panels = d.panels();
        for (int i = 0; i < panels.size(); i++) {
            JsonNode a = panels.get(i).path("gridPos");
            check(
                    problems,
                    a.path("w").asInt() > 0
                            && a.path("h").asInt() > 0
                            && a.path("x").asInt() >= 0
                            && a.path("x").asInt() + a.path("w").asInt() <= 24,
                    "panel " + panels.get(i).path("id") + " is outside the 24-column grid");
            for (int j = i + 1; j < panels.size(); j++) {
                JsonNode b = panels.get(j).path("gridPos");
                boolean overlap =
                        a.path("x").asInt() < b.path("x").asInt() + b.path("w").asInt()
                                && b.path("x").asInt()
                                        < a.path("x").asInt() + a.path("w").asInt()
                                && a.path("y").asInt()
                                        < b.path("y").asInt() + b.path("h").asInt()
                                && b.path("y").asInt()
                                        < a.path("y").asInt() + a.path("h").asInt();
                check(
                        problems,
                        !overlap,
                        "panels " + panels.get(i).path("id") + " and "
                                + panels.get(j).path("id") + " overlap");
            }
        }
        assertEquals(List.of(), problems, d.fileName());
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void rangesUseRateIntervalOrTheWholeRangeForInstantQueries(GrafanaDashboard d) {
        List<String> problems = new ArrayList<>();
        for (GrafanaDashboard.Query q : d.queries()) {
            for (String window : PromQl.rangeWindows(q.expr())) {
                boolean ok = window.equals("$__rate_interval") || (q.instant() && window.equals("$__range"));
                check(
                        problems,
                        ok,
                        q.where() + ": window [" + window
                                + "] must be $__rate_interval ($__range only in instant queries)");
            }
        }
        assertEquals(List.of(), problems, d.fileName());
    }

    @ParameterizedTest
    @MethodSource("dashboards")
    void everySelectorIsScopedToTheChosenJobAndInstance(GrafanaDashboard d) {
        boolean fleet = d.uid().equals(FLEET_UID);
        String job = fleet ? "job=~\"$job\"" : "job=\"$job\"";
        String instance = "instance=\"$instance\"";
        List<String> problems = new ArrayList<>();
        for (GrafanaDashboard.Query q : d.queries()) {
            if (q.refId().equals("variable")) {
                continue; // variables build the scope
            }
            for (PromQl.Selector s : PromQl.selectors(q.expr())) {
                if (fleet) {
                    // the fleet view has no $instance: its per-job rules (the stats, top 10s and trends at
                    // 15,000 servers) would match an instance matcher only when Instance is All
                    check(
                            problems,
                            s.matchers().contains(job) && !s.matchers().contains("instance"),
                            q.where() + ": " + s.metric() + " must select " + job + " and no instance");
                    continue;
                }
                check(
                        problems,
                        s.matchers().contains(job) && s.matchers().contains(instance),
                        q.where() + ": " + s.metric() + " must select " + job + " and " + instance);
            }
        }
        assertEquals(List.of(), problems, d.fileName());
    }

    @Test
    void everyNativeHistogramQueryFallsBackToTheClassicSeries() {
        // Prometheus 3 without scrape_native_histograms, or 2.x without the feature flag, stores only the
        // classic _bucket/_sum/_count series: a native-only query would come up empty there.
        Set<String> nativeHistograms = Set.of("blockscope_gc_pause_seconds", "blockscope_block_hold_seconds");
        Map<String, String> expressions = MetricNamesTest.expressions(GrafanaDashboard.all());
        List<String> nativeOnly = new ArrayList<>();
        expressions.forEach((where, expr) -> {
            for (String name : PromQl.metricNames(expr)) {
                if (nativeHistograms.contains(name)
                        && !(Pattern.compile("\\sor\\s").matcher(expr).find()
                                && (expr.contains(name + "_bucket")
                                        || expr.contains(name + "_sum")
                                        || expr.contains(name + "_count")))) {
                    nativeOnly.add(where + ": " + expr);
                }
            }
        });
        assertEquals(List.of(), nativeOnly);
        assertTrue(expressions.values().stream().anyMatch(e -> e.contains("blockscope_gc_pause_seconds_bucket")));
    }

    @Test
    void serverDashboardUsesNativeHistogramQuantilesForGcPauses() {
        GrafanaDashboard server = GrafanaDashboard.read(ModulePaths.serverDashboard());
        assertTrue(
                server.queries().stream()
                        .anyMatch(q -> GC_NATIVE_QUANTILE.matcher(q.expr()).find()),
                "no histogram_quantile(0.99, sum by (...) (rate(blockscope_gc_pause_seconds[$__rate_interval]))) query");
    }

    @Test
    void fleetTablesAreTopKAndLinkToTheServerDashboard() {
        GrafanaDashboard fleet = GrafanaDashboard.read(ModulePaths.fleetDashboard());
        List<String> problems = new ArrayList<>();
        int tables = 0;
        for (JsonNode panel : fleet.dataPanels()) {
            if (!"table".equals(panel.path("type").asText())) {
                continue;
            }
            tables++;
            String name = "panel " + panel.path("id").asInt();
            for (JsonNode target : panel.path("targets")) {
                check(
                        problems,
                        target.path("expr").asText().startsWith("topk(10, "),
                        name + ": fleet tables show the top 10, not every instance");
                check(problems, target.path("instant").asBoolean(), name + ": fleet tables are instant queries");
            }
            boolean linked = false;
            for (JsonNode link : panel.path("fieldConfig").path("defaults").path("links")) {
                String url = link.path("url").asText();
                linked |= url.startsWith("/d/" + SERVER_UID + "/")
                        && url.contains("var-instance=${__data.fields.instance}")
                        && url.contains("var-job=${__data.fields.job}")
                        && url.contains("${datasource:queryparam}");
            }
            check(
                    problems,
                    linked,
                    name + ": no data link to the " + SERVER_UID + " dashboard for the clicked instance");
        }
        check(problems, tables >= 4, "the fleet view needs top-k tables for copies, GC p99, references and leaks");
        assertEquals(List.of(), problems);
    }

    @Test
    void fleetAndAlertsReadRecordingRulesInsteadOfRecomputingThem() {
        // Each rate() a recording rule computes must not be recomputed by the fleet view or the alerts.
        List<String> recomputed = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        GrafanaDashboard.read(ModulePaths.fleetDashboard()).queries().forEach(q -> expressions.add(q.expr()));
        RuleFile.alerts().alertRules().forEach(r -> expressions.add(r.expr()));
        for (RuleFile.Rule record : RuleFile.recordingRules().rules()) {
            for (String metric : PromQl.metricNames(record.expr())) {
                Pattern rate = Pattern.compile("\\brate\\(\\s*" + Pattern.quote(metric) + "\\b");
                if (!rate.matcher(record.expr()).find()) {
                    continue;
                }
                for (String expr : expressions) {
                    if (rate.matcher(expr).find()) {
                        recomputed.add("uses rate(" + metric + ") instead of " + record.name() + ": " + expr);
                    }
                }
            }
        }
        assertEquals(List.of(), recomputed);
    }

    /**
     * The unit an expression measures, where it is unambiguous from names alone: quantiles and
     * recorded quantiles of *_seconds are seconds, rates of *_bytes_total are bytes/s, plain *_bytes
     * gauges are bytes, ratios of two series are 0..1.
     */
    static Optional<String> expectedUnit(String expr) {
        Set<String> names = PromQl.metricNames(expr);
        if (names.isEmpty()) {
            return Optional.empty();
        }
        if (expr.contains("histogram_quantile(") || names.stream().allMatch(n -> n.contains("_seconds:p"))) {
            return Optional.of("s");
        }
        if (names.stream().allMatch(n -> n.endsWith("_bytes_total") || n.contains("_bytes:rate"))
                && !expr.contains("/")) {
            return Optional.of("binBps");
        }
        if (names.stream().allMatch(n -> n.endsWith("_bytes")) && !expr.contains("/") && !expr.contains("rate(")) {
            return Optional.of("bytes");
        }
        if (expr.contains(" / ") && names.stream().noneMatch(n -> n.endsWith("_sum") || n.endsWith("_count"))) {
            return Optional.of("percentunit");
        }
        return Optional.empty();
    }

    private static Set<String> panelUnits(JsonNode panel) {
        Set<String> units = new HashSet<>();
        units.add(panel.path("fieldConfig").path("defaults").path("unit").asText());
        for (JsonNode override : panel.path("fieldConfig").path("overrides")) {
            for (JsonNode property : override.path("properties")) {
                if ("unit".equals(property.path("id").asText())) {
                    units.add(property.path("value").asText());
                }
            }
        }
        return units;
    }

    private static Map<String, String> datasourceOf(JsonNode node) {
        JsonNode ds = node.path("datasource");
        return Map.of("type", ds.path("type").asText(), "uid", ds.path("uid").asText());
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode item : array) {
            if (value.equals(item.asText())) {
                return true;
            }
        }
        return false;
    }

    private static void check(List<String> problems, boolean ok, String problem) {
        if (!ok) {
            problems.add(problem);
        }
    }
}
