package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The whole chain, for real, once per Prometheus release ({@link PrometheusVersion}: Debian's 2.42 and
 * 3.16): the example server (zero-copy read path) runs with the built agent, and two real Prometheus
 * servers of that release (loopback, 1 s scrape) scrape it:
 * <ul>
 *   <li>"default": native histograms on (2.x: the feature flag; 3.x: {@code scrape_native_histograms: true},
 *       as prometheus-3.yml), job {@code blockscope}, the checked-in rules ({@code for:} shortened) and
 *       dashboards; it also scrapes itself as job {@code prometheus};</li>
 *   <li>"custom": native histograms off (classic series only, as a default Prometheus 3 stores them),
 *       job {@code hbase-regionserver} with a {@code cluster} label, and the mixin rendered for exactly
 *       that ({@link Mixin#CUSTOM_CONFIG} plus forShort).</li>
 * </ul>
 * Each stores the histograms in the form asked for, and only that (checked before the queries, so the
 * fallbacks cannot hide a native-histogram scrape that silently stayed classic).
 * PE drives scans through a deliberately copying filter, then random reads, over RPC. Then, on both:
 * <ul>
 *   <li>BlockscopeHotCopyPath fires with its {@code site} annotation naming the copying filter class;</li>
 *   <li>every expression of both dashboards, taken from their JSON, returns data;</li>
 *   <li>every rule of both renders was evaluated without error, and every recording rule has series;</li>
 * </ul>
 * and the fleet dashboard's "All" jobs are the blockscope jobs only: its "instances up" counts the
 * server, not Prometheus' own target.
 * Needs the reactor's agent and example-server jars (the pom passes their paths), prometheus on PATH and,
 * for 3.x, {@value PrometheusVersion#V3_VARIABLE}.
 */
@Execution(ExecutionMode.CONCURRENT) // waits on alert windows and scrapes: overlaps the other classes
class DashboardsEndToEndIT {

    static final String FILTER = "io.blockscope.dashboards.e2e.CopyingValueFilter";
    static final Pattern LISTENING = Pattern.compile("blockscope-example-server listening on (http://\\S+)");
    static final Pattern AGENT_METRICS = Pattern.compile("metrics at http://(127\\.0\\.0\\.1:\\d+)/metrics");
    /** Scans through the copying filter: long enough for the 1 minute copy rate to pass 4 MiB/s. */
    private static final Duration LOAD = Duration.ofSeconds(25);

    private static final Duration READS = Duration.ofSeconds(8);
    /** Panels about HBase's own buffer allocator, which the example server does not have. */
    static final String HBASE_ONLY = "(HBase 2.3+)";
    /** Panels of series only the hbase2 profile exports (the table and user of a copy). */
    static final String HBASE = "(HBase)";
    /** Those series (docs/metrics.md, "Whose copies"): the example server has no table or user. */
    static final Set<String> HBASE_SERIES = Set.of(
            "blockscope_copy_to_heap_bytes_by_table_total",
            "blockscope_copy_to_heap_bytes_by_user_total",
            "blockscope_copy_site_owner_bytes_total");

    @ParameterizedTest(name = "{0}")
    @EnumSource(PrometheusVersion.class)
    void dashboardsShowDataAndTheHotCopyAlertNamesTheFilter(PrometheusVersion version, @TempDir Path dir)
            throws Exception {
        version.prometheus(); // skips (locally) before the server starts when this release is missing
        Path agentJar = requiredFile("blockscope.agent.jar", "the agent jar (mvn package -pl agent)");
        Path serverJar =
                requiredFile("blockscope.server.jar", "the example server jar (mvn package -pl example-server)");
        Path filterClasses =
                requiredFile("blockscope.test.classes", "this module's compiled test classes (with " + FILTER + ")");
        assertTrue(
                Files.exists(filterClasses.resolve(FILTER.replace('.', '/') + ".class")),
                FILTER + " is not compiled into " + filterClasses);

        String java = JavaCommand.testJava().toString();
        String classPath = serverJar + File.pathSeparator + filterClasses;
        Path alerts = dir.resolve("alerts.yml");
        RuleFile.alerts().writeWithFor(alerts, f -> "1s");
        Path custom = Mixin.render("{forShort: true, " + Mixin.CUSTOM_FIELDS + "}", dir.resolve("custom"));

        try (ChildProcess server = ChildProcess.start(
                List.of(
                        java,
                        "-Xmx256m",
                        // Track every checkout and count any checkout older than 1 ms at a scrape as an (age)
                        // leak: the filter's slow cells hold a block for 5 ms now and then, so the leak
                        // panels get series. Sample copies often so sites show up within seconds.
                        "-javaagent:" + agentJar + "=127.0.0.1:0"
                                + ",leak.sample=1,leak.rate=0,leak.age=1ms,copy.sample=64",
                        "-cp",
                        classPath,
                        "io.blockscope.server.cli.Main",
                        "serve",
                        "--rows",
                        "20000",
                        "--port",
                        "0",
                        "--deploy",
                        "cbc-offheap",
                        "--read-path",
                        "zero-copy",
                        "--allow-filter-classes",
                        FILTER),
                Map.of(),
                dir.resolve("server.log"))) {
            String url = server.awaitMatch(LISTENING, Duration.ofSeconds(90)).group(1);
            // The agent's port is the kernel's pick: one picked here could be taken before the agent binds it.
            String target =
                    server.awaitMatch(AGENT_METRICS, Duration.ofSeconds(30)).group(1);

            try (PrometheusServer prometheus = version.setup(dir.resolve("prometheus-default"), true)
                            .target(target)
                            .ruleFiles(List.of(ModulePaths.recordingRules(), alerts))
                            .scrapeItself(true)
                            .start();
                    PrometheusServer classic = version.setup(dir.resolve("prometheus-custom"), false)
                            .job(Mixin.CUSTOM_JOB)
                            .targetLabels(Map.of("cluster", Mixin.CUSTOM_CLUSTER))
                            .target(target)
                            .ruleFiles(List.of(custom.resolve("recording-rules.yml"), custom.resolve("alerts.yml")))
                            .start()) {
                for (PrometheusServer p : List.of(prometheus, classic)) {
                    assertTrue(
                            Poll.until(
                                    Duration.ofSeconds(30),
                                    () -> p.query("up{instance=\"" + target + "\"} == 1")
                                                    .size()
                                            == 1),
                            "Prometheus cannot scrape the agent at " + target + ": " + p.query("up") + "\n"
                                    + server.tail(40));
                }
                Instant loadStart = Instant.now();
                // One PE at a time: each checks at its end that the server holds no block references.
                try (ChildProcess scans =
                        pe(java, classPath, url, dir, "scans", "scanRange", LOAD, "class:" + FILTER)) {
                    assertTrue(
                            Poll.until(
                                    LOAD.plusSeconds(30),
                                    () -> hotCopySites(prometheus).contains(FILTER)
                                            && hotCopySites(classic).contains(FILTER)),
                            "BlockscopeHotCopyPath did not fire naming " + FILTER + "; firing sites "
                                    + hotCopySites(prometheus) + " (default), " + hotCopySites(classic)
                                    + " (custom), top copy sites "
                                    + prometheus.query("topk(3, instance_site:blockscope_copy_site_bytes:rate1m)")
                                    + "\nscans:\n" + scans.tail(40) + "\nserver:\n" + server.tail(40));
                    System.out.println("[e2e] BlockscopeHotCopyPath firing after "
                            + Duration.between(loadStart, Instant.now()).toSeconds() + " s of load, site "
                            + hotCopySites(prometheus));
                    int scansExit = scans.awaitExit(LOAD.plusSeconds(60));
                    assertEquals(0, scansExit, "PE scans exited with " + scansExit + ":\n" + scans.tail(40));
                }
                try (ChildProcess reads = pe(java, classPath, url, dir, "reads", "randomRead", READS, null)) {
                    int readsExit = reads.awaitExit(READS.plusSeconds(60));
                    assertEquals(0, readsExit, "PE reads exited with " + readsExit + ":\n" + reads.tail(40));
                }
                assertHistogramsStoredAs(prometheus, true, target, version);
                assertHistogramsStoredAs(classic, false, target, version);
                assertEveryDashboardQueryReturnsData(
                        prometheus,
                        GrafanaDashboard.all(),
                        Map.of("job", PrometheusSetup.JOB, "instance", target),
                        loadStart,
                        version + ", default, native histograms");
                assertEveryDashboardQueryReturnsData(
                        classic,
                        GrafanaDashboard.all(custom.resolve("grafana")),
                        Map.of("cluster", Mixin.CUSTOM_CLUSTER, "job", Mixin.CUSTOM_JOB, "instance", target),
                        loadStart,
                        version + ", custom _config, classic histograms");
                assertEveryRuleEvaluatedAndEveryRecordingRuleHasSeries(prometheus, version + ", default");
                assertEveryRuleEvaluatedAndEveryRecordingRuleHasSeries(classic, version + ", custom _config");
                assertFleetAllMeansBlockscopeJobsOnly(prometheus);
            }
        }
    }

    /** Each query, variables resolved for this server, as a range query over the load: some numeric sample. */
    private static void assertEveryDashboardQueryReturnsData(
            PrometheusServer prometheus,
            List<GrafanaDashboard> dashboards,
            Map<String, String> server,
            Instant loadStart,
            String which) {
        Instant end = Instant.now();
        Map<String, String> variables = new HashMap<>(server);
        variables.putAll(Map.of(
                // Grafana's $__rate_interval is at least four scrape intervals: 4 s here.
                "__rate_interval",
                "4s",
                "__interval",
                "1s",
                "__range",
                (Duration.between(loadStart, end).toSeconds() + 1) + "s"));
        List<String> empty = new ArrayList<>();
        int checked = 0;
        for (GrafanaDashboard dashboard : dashboards) {
            for (GrafanaDashboard.Query query : dashboard.queries()) {
                if (query.panelTitle().endsWith(HBASE_ONLY)
                        || query.panelTitle().endsWith(HBASE)) {
                    continue; // the example server has no ByteBuffAllocator nor tables; hbase-rs-it queries these
                }
                String expr = PromQl.resolveGrafanaVariables(query.expr(), variables);
                JsonNode result = query.instant()
                        ? prometheus.query(expr)
                        : prometheus.queryRange(expr, loadStart, end, Duration.ofSeconds(1));
                if (!PrometheusServer.hasNumber(result)) {
                    empty.add(query.where() + ": " + expr);
                }
                checked++;
            }
        }
        assertTrue(checked > 40, "expected the dashboards' queries, found " + checked);
        assertEquals(List.of(), empty, which + ": dashboard queries without data from the real server");
        System.out.println("[e2e] " + which + ": all " + checked + " dashboard queries returned data for " + server);
    }

    /**
     * The block hold time histogram (which the agent exports in both forms, and the load has filled) arrives
     * native only or classic only, as asked: a native scrape that silently stayed classic would otherwise pass through the
     * fallbacks unnoticed.
     */
    private static void assertHistogramsStoredAs(
            PrometheusServer prometheus, boolean nativeHistograms, String target, PrometheusVersion version)
            throws InterruptedException {
        String selector = "{instance=\"" + target + "\"}";
        String stored = nativeHistograms ? "blockscope_block_hold_seconds" : "blockscope_block_hold_seconds_count";
        String other = nativeHistograms ? "blockscope_block_hold_seconds_count" : "blockscope_block_hold_seconds";
        assertTrue(
                Poll.until(
                        Duration.ofSeconds(30),
                        () -> prometheus.query(stored + selector).size() > 0),
                version + (nativeHistograms ? " with" : " without") + " native histograms stored no " + stored
                        + ": "
                        + prometheus.query("count by (__name__) ({__name__=~\"blockscope_block_hold_seconds.*\"})")
                        + "\n"
                        + prometheus.logTail());
        assertEquals(
                0, prometheus.query(other + selector).size(), other + " stored as well: " + prometheus.query(other));
    }

    /**
     * Rules as Prometheus ran them: every rule (alerts included) evaluated without error, and every recording
     * rule's series exists, so nothing the alerts and the fleet dashboard read comes up empty.
     */
    private static void assertEveryRuleEvaluatedAndEveryRecordingRuleHasSeries(
            PrometheusServer prometheus, String which) {
        List<String> problems = new ArrayList<>();
        Set<String> hbaseOnly = rulesReading(HBASE_SERIES);
        int rules = 0;
        for (JsonNode group : prometheus.ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                rules++;
                String name = rule.path("name").asText();
                if (!"ok".equals(rule.path("health").asText())) {
                    problems.add(name + ": health " + rule.path("health").asText() + ", "
                            + rule.path("lastError").asText());
                }
                if ("recording".equals(rule.path("type").asText())
                        && !hbaseOnly.contains(name)
                        && prometheus.query(name).isEmpty()) {
                    problems.add(name + ": no series");
                }
            }
        }
        int expected = RuleFile.alerts().rules().size()
                + RuleFile.recordingRules().rules().size();
        assertEquals(expected, rules, which + ": rules loaded");
        assertEquals(List.of(), problems, which + ": rules that failed or recorded nothing");
    }

    /**
     * The recording rules that read {@code series}, directly or through another such rule: empty on a server
     * without them (hbase-rs-it sees them filled, through the panels that read them).
     */
    static Set<String> rulesReading(Set<String> series) {
        Set<String> reading = new HashSet<>(series);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (RuleFile.Rule rule : RuleFile.recordingRules().rules()) {
                if (!reading.contains(rule.name())
                        && PromQl.metricNames(rule.expr()).stream().anyMatch(reading::contains)) {
                    grew |= reading.add(rule.name());
                }
            }
        }
        reading.removeAll(series);
        return reading;
    }

    /**
     * The fleet's $job with "All" selected, resolved as Grafana does (the listed values as a regex): only
     * the blockscope job, so "instances up" counts the server and not Prometheus' own target.
     */
    private static void assertFleetAllMeansBlockscopeJobsOnly(PrometheusServer prometheus) {
        GrafanaDashboard fleet = GrafanaDashboard.read(ModulePaths.fleetDashboard());
        String jobs = GrafanaDashboard.labelValuesSelector(GrafanaDashboard.variableQuery(fleet.variable("job")));
        List<String> listed = new ArrayList<>();
        prometheus
                .query("group by (job) (" + jobs + ")")
                .forEach(s -> listed.add(s.path("metric").path("job").asText()));
        assertEquals(List.of(PrometheusSetup.JOB), listed, "the fleet's $job lists other jobs");
        assertEquals(2.0, number(prometheus.query("count(up == 1)")), "Prometheus scrapes the server and itself");
        GrafanaDashboard.Query instancesUp = fleet.queries().stream()
                .filter(q -> q.panelId() == 2)
                .findFirst()
                .orElseThrow();
        String expr =
                PromQl.resolveGrafanaVariables(instancesUp.expr(), Map.of("job", "(" + String.join("|", listed) + ")"));
        assertEquals(1.0, number(prometheus.query(expr)), instancesUp.where() + " with All: " + expr);
    }

    private static double number(JsonNode result) {
        assertEquals(1, result.size(), result.toString());
        return Double.parseDouble(result.path(0).path("value").path(1).asText());
    }

    /** The classes named by the site annotations of firing BlockscopeHotCopyPath alerts. */
    private static List<String> hotCopySites(PrometheusServer prometheus) {
        List<String> sites = new ArrayList<>();
        for (JsonNode alert : prometheus.alerts()) {
            if ("BlockscopeHotCopyPath"
                            .equals(alert.path("labels").path("alertname").asText())
                    && "firing".equals(alert.path("state").asText())) {
                sites.add(alert.path("annotations").path("site").asText());
            }
        }
        return sites.stream().map(s -> s.replaceAll("\\.[^.]+(:\\d+)?$", "")).toList();
    }

    static ChildProcess pe(
            String java,
            String classPath,
            String url,
            Path dir,
            String name,
            String workload,
            Duration duration,
            String filter)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-cp",
                classPath,
                "io.blockscope.server.cli.Main",
                "pe",
                "--target",
                url,
                "--workload",
                workload,
                "--threads",
                "1",
                "--duration",
                duration.toSeconds() + "s",
                "--rounds",
                "1",
                "--warmup",
                "0s",
                "--no-progress"));
        if (filter != null) {
            command.addAll(List.of("--filter", filter));
        }
        return ChildProcess.start(command, Map.of(), dir.resolve("pe-" + name + ".log"));
    }

    static Path requiredFile(String property, String what) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    "system property " + property + " (" + what + ") is not set: run through Maven (mvn verify)");
        }
        Path path = Path.of(value);
        if (!Files.exists(path)) {
            throw new IllegalStateException(
                    what + " is missing at " + path + ": build the reactor first (mvn verify from the root)");
        }
        return path;
    }
}
