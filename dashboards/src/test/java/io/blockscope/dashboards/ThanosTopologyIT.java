package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.FreePort;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The mixin on the topology an operator runs at fleet scale, all real processes on loopback:
 * <ul>
 *   <li>two clusters ({@code cluster} external label "east", "west"), each with one example server running
 *       the built agent at its default options;</li>
 *   <li>per cluster a pair of Prometheus servers (Debian's 2.42; external label {@code replica} "0", "1")
 *       scraping the same target every second, each with the mixin's recording rules and alerts (rendered
 *       with {@code clusterLabel: 'cluster'}) and a {@code thanos sidecar};</li>
 *   <li>one {@code thanos query} over the four sidecars, deduplicating on {@code replica};</li>
 *   <li>the alerts evaluated once, globally, by {@code thanos rule} against that querier; and, the other
 *       supported way, by every Prometheus, sending to one Alertmanager (Debian's) after dropping
 *       {@code replica} ({@code alert_relabel_configs}), so the pair's copies of an alert are one alert;
 *       thanos rule sends to the same Alertmanager, its alerts told apart by its {@code ruler} label;</li>
 *   <li>and, as the yardstick, one more Prometheus scraping both servers with {@code cluster} as a target
 *       label: the single Prometheus holding the same data.</li>
 * </ul>
 * A copying scan on the east server (as {@link DashboardsEndToEndIT}) makes BlockscopeHotCopyPath fire there;
 * the west server serves zero-copy reads. Then:
 * <ol>
 *   <li>the alert fires once for the east server in thanos rule and once in Alertmanager per path (while
 *       both replicas of the pair fire it), and nowhere for the west server; every alert Alertmanager
 *       receives, from either path, links the dashboard of its own cluster ({@code var-cluster=east}),
 *       though in the pair's path cluster is an external label, absent from the rule's {@code $labels};</li>
 *   <li>every query of both dashboards (each server's view, and the fleet over both clusters) answers through
 *       Thanos Query what it answers on the single Prometheus: the same series, {@code replica} aside, and
 *       values within {@value ThanosTopology#TOLERANCE_PERCENT} %, evaluated at one instant after the load with every
 *       rate window spanning the whole load (see {@link ThanosTopology#SAME});</li>
 *   <li>the fleet view ranks both clusters' servers; its sums count a deduplicated pair once (and, as a check
 *       that the pair is real, twice with deduplication off);</li>
 *   <li>every finding link of the rendered hot-copy advice names an anchor of the page a real agent (the
 *       east server's) serves at that path ({@code /findings}, {@code /findings-security});</li>
 *   <li>the alert resolves in both places once the copying stops.</li>
 * </ol>
 * Needs {@value Thanos#VARIABLE} ({@code .ci/thanos.sh}), Debian's prometheus and prometheus-alertmanager.
 */
@Execution(ExecutionMode.CONCURRENT)
class ThanosTopologyIT {

    private static final List<String> CLUSTERS = List.of("east", "west");
    private static final String JOB = PrometheusSetup.JOB;
    private static final String ALERT = "BlockscopeHotCopyPath";
    /** Copying scans: long enough for the 1 minute copy rate to pass 4 MiB/s (as DashboardsEndToEndIT). */
    private static final Duration LOAD = Duration.ofSeconds(25);

    @Test
    void mixinAnswersThroughThanosQueryAsOnOnePrometheusAndAlertsOncePerServer(@TempDir Path dir) throws Exception {
        Path thanos = Thanos.binary(System.getenv()); // skips (locally) or fails (CI) before anything starts
        Path alertmanagerBinary = PrometheusSetup.onPath("prometheus-alertmanager");
        Path prometheusBinary = PrometheusVersion.V2.prometheus();
        Path agentJar =
                DashboardsEndToEndIT.requiredFile("blockscope.agent.jar", "the agent jar (mvn package -pl agent)");
        Path serverJar = DashboardsEndToEndIT.requiredFile(
                "blockscope.server.jar", "the example server jar (mvn package -pl example-server)");
        Path testClasses = DashboardsEndToEndIT.requiredFile(
                "blockscope.test.classes", "this module's compiled test classes (with the copying filter)");
        String java = JavaCommand.testJava().toString();
        String classPath = serverJar + File.pathSeparator + testClasses;
        Path mixin = ThanosTopology.renderMixin(ModulePaths.dashboards(), dir.resolve("mixin"));
        List<Path> rules = ThanosTopology.rules(mixin);

        List<AutoCloseable> started = new ArrayList<>();
        try {
            Instant t0 = Instant.now();
            // The JVMs take longest: both start at once, and Alertmanager meanwhile.
            Map<String, ChildProcess> servers = new LinkedHashMap<>();
            for (String cluster : CLUSTERS) {
                ChildProcess server = startServer(java, agentJar, classPath, dir.resolve("server-" + cluster + ".log"));
                started.add(server);
                servers.put(cluster, server);
            }
            Thanos.Component alertmanager = startAlertmanager(alertmanagerBinary, dir.resolve("alertmanager"));
            started.add(alertmanager);
            Map<String, String> urls = new HashMap<>();
            Map<String, String> targets = new LinkedHashMap<>();
            for (String cluster : CLUSTERS) {
                ChildProcess server = servers.get(cluster);
                urls.put(
                        cluster,
                        server.awaitMatch(DashboardsEndToEndIT.LISTENING, Duration.ofSeconds(90))
                                .group(1));
                targets.put(
                        cluster,
                        server.awaitMatch(DashboardsEndToEndIT.AGENT_METRICS, Duration.ofSeconds(30))
                                .group(1));
            }
            alertmanager.awaitReady(Duration.ofSeconds(30));
            Duration serversUp = Duration.between(t0, Instant.now());

            List<Thanos.Component> sidecars = new ArrayList<>();
            for (String cluster : CLUSTERS) {
                for (String replica : ThanosTopology.REPLICAS) {
                    ThanosTopology.Member member = ThanosTopology.startPairMember(
                            thanos,
                            prometheusBinary,
                            dir,
                            JOB,
                            cluster,
                            replica,
                            targets.get(cluster),
                            rules,
                            alertmanager.http());
                    started.add(member);
                    sidecars.add(member.sidecar());
                }
            }
            PrometheusServer reference = ThanosTopology.startSingle(prometheusBinary, dir, JOB, targets, rules);
            started.add(reference);
            Duration prometheusUp = Duration.between(t0, Instant.now());

            Thanos.Component query = ThanosTopology.startQuery(thanos, sidecars, dir.resolve("query.log"));
            started.add(query);
            Thanos.Component rule =
                    ThanosTopology.startRule(thanos, mixin.resolve("alerts.yml"), query, alertmanager.http(), dir);
            started.add(rule);

            PromApi thanosQuery = new PromApi("thanos query", query.http());
            PromApi thanosRule = new PromApi("thanos rule", rule.http());
            PromApi single = new PromApi("the single Prometheus", reference.address());
            PromApi am = new PromApi("alertmanager", alertmanager.http());
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(60),
                            () -> ThanosTopology.answers(
                                    () -> count(thanosQuery.query("up == 1", Instant.now(), false)) == 4
                                            && count(thanosQuery.query("up == 1")) == 2
                                            && count(single.query("up == 1")) == 2)),
                    "the four Prometheus servers do not all scrape their cluster's server through the querier: "
                            + thanosQuery.query("up", Instant.now(), false) + "\nsingle: " + single.query("up")
                            + "\n" + query.process().tail(20));
            System.out.println("[thanos] topology up in "
                    + Duration.between(t0, Instant.now()).toSeconds() + " s (example servers "
                    + serversUp.toSeconds() + " s, Prometheus servers " + prometheusUp.toSeconds() + " s): "
                    + targets);

            int findingLinks =
                    assertEveryFindingLinkIsOnTheAgentsPage(mixin.resolve("alerts.yml"), targets.get("east"));
            System.out.println("[thanos] " + findingLinks + " finding links of the hot-copy advice, each an anchor of"
                    + " the east agent's /findings or /findings-security");

            // The cause: copying scans on the east server only; zero-copy reads on the west one.
            String east = targets.get("east");
            String west = targets.get("west");
            Instant loadStart = Instant.now();
            try (ChildProcess scans = DashboardsEndToEndIT.pe(
                            java,
                            classPath,
                            urls.get("east"),
                            dir,
                            "east-scans",
                            "scanRange",
                            LOAD,
                            "class:" + DashboardsEndToEndIT.FILTER);
                    ChildProcess reads = DashboardsEndToEndIT.pe(
                            java, classPath, urls.get("west"), dir, "west-reads", "randomRead", LOAD, null)) {
                assertTrue(
                        Poll.until(
                                LOAD.plusSeconds(30),
                                () -> firing(ThanosTopology.ruleAlerts(thanosRule))
                                                        .size()
                                                > 0
                                        && count(thanosQuery.query(
                                                        "ALERTS{alertname=\"" + ALERT + "\", alertstate=\"firing\"}",
                                                        Instant.now(),
                                                        false))
                                                == 2
                                        && firingInAlertmanager(am, true).size() > 0
                                        && firingInAlertmanager(am, false).size() > 0),
                        ALERT + " did not fire in thanos rule, both east replicas and Alertmanager (from both): rule "
                                + ThanosTopology.ruleAlerts(thanosRule) + " "
                                + ThanosTopology.unhealthy(thanosRule.ruleGroups()) + "\n"
                                + rule.process().tail(10) + "\nreplicas "
                                + thanosQuery.query("ALERTS", Instant.now(), false) + "\nalertmanager "
                                + am.alertmanagerAlerts() + "\ncopy rate "
                                + thanosQuery.query("instance:blockscope_copy_to_heap_bytes:rate1m") + "\n"
                                + scans.tail(20));
                Duration firedAfter = Duration.between(loadStart, Instant.now());
                Poll.sleep(Duration.ofSeconds(3)); // both replicas have sent it a few times (resend delay 1 s)
                assertOncePerServer(firing(ThanosTopology.ruleAlerts(thanosRule)), east, "thanos rule");
                assertOncePerServer(
                        firingInAlertmanager(am, false), east, "Alertmanager, fed by both replicas of each pair");
                assertOncePerServer(firingInAlertmanager(am, true), east, "Alertmanager, fed by thanos rule");
                int linked = assertEveryDashboardLinkNamesItsCluster(am.alertmanagerAlerts());
                System.out.println("[thanos] " + linked + " alerts in Alertmanager, each dashboard_url naming its"
                        + " cluster (thanos rule's and the pairs')");
                System.out.println(
                        "[thanos] " + ALERT + " firing once, for " + east + ", after " + firedAfter.toSeconds()
                                + " s of load: thanos rule and Alertmanager (both east replicas firing it)");
                assertEquals(0, scans.awaitExit(LOAD.plusSeconds(60)), "PE scans:\n" + scans.tail(40));
                assertEquals(0, reads.awaitExit(LOAD.plusSeconds(60)), "PE reads:\n" + reads.tail(40));
            }

            // One instant after the load at which every scraper's latest sample holds the same counts: all
            // windows span the whole load.
            Instant at = ThanosTopology.settledInstant(single, thanosQuery, JOB);
            String window = Duration.between(ThanosTopology.settledStart(single, thanosQuery, JOB, loadStart), at)
                            .toSeconds()
                    + "s";
            Map<String, String> timing = Map.of("__rate_interval", window, "__interval", "1s", "__range", window);
            assertEveryHealthy(thanosRule.ruleGroups(), "thanos rule (alerts against the querier)");
            assertEverySingleAnswerMatches(single, thanosQuery, mixin, targets, timing, at);
            assertFleetRanksBothClustersAndCountsAPairOnce(single, thanosQuery, mixin, east, west, timing, at);

            Instant loadEnd = Instant.now();
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(120),
                            () -> firing(ThanosTopology.ruleAlerts(thanosRule)).isEmpty()
                                    && firingInAlertmanager(am, true).isEmpty()
                                    && firingInAlertmanager(am, false).isEmpty()),
                    ALERT + " did not resolve after the copying stopped: rule " + ThanosTopology.ruleAlerts(thanosRule)
                            + "\nalertmanager " + am.alertmanagerAlerts());
            System.out.println("[thanos] " + ALERT + " resolved in thanos rule and Alertmanager "
                    + Duration.between(loadEnd, Instant.now()).toSeconds() + " s after the comparisons ("
                    + Duration.between(loadStart, Instant.now()).toSeconds() + " s after the load started)");
        } finally {
            Collections.reverse(started);
            for (AutoCloseable resource : started) {
                resource.close();
            }
        }
    }

    /**
     * Every query of both dashboards at {@code at}: the offheap view once per server, the fleet over both
     * clusters (All: the listed values as a regex, as Grafana resolves it).
     */
    private static void assertEverySingleAnswerMatches(
            PromApi single,
            PromApi thanosQuery,
            Path mixin,
            Map<String, String> targets,
            Map<String, String> timing,
            Instant at) {
        ThanosTopology.Comparison comparison = ThanosTopology.compareDashboards(
                single,
                thanosQuery,
                mixin.resolve("grafana"),
                dashboard -> dashboard.fileName().contains("fleet")
                        ? List.of(Map.of(
                                "cluster",
                                "(" + String.join("|", CLUSTERS) + ")",
                                "job",
                                "(" + JOB + ")",
                                "instance",
                                ".*"))
                        : targets.entrySet().stream()
                                .map(t -> Map.of("cluster", t.getKey(), "job", JOB, "instance", t.getValue()))
                                .toList(),
                timing,
                at);
        int compared = comparison.compared();
        int withData = comparison.withData();
        assertEquals(List.of(), comparison.problems(), "dashboard queries that answer otherwise through Thanos Query");
        assertTrue(compared > 80, "expected both dashboards' queries for three views, compared " + compared);
        assertTrue(withData > compared / 2, "only " + withData + " of " + compared + " queries had data");
        System.out.printf(
                "[thanos] all %d dashboard queries (%d with data) answer through Thanos Query as on one Prometheus;"
                        + " largest relative difference %.2f %% (allowed %d %%), %s; %d of them (scrape duration, GC"
                        + " pause quantiles) compared by series only%n",
                compared,
                withData,
                comparison.worst() * 100,
                ThanosTopology.TOLERANCE_PERCENT,
                comparison.worstWhere(),
                comparison.seriesOnly());
    }

    /**
     * The fleet over both clusters: its top-10 table ranks the east server (copying) above the west one, and
     * its sums over deduplicated pairs equal the single Prometheus' (and double without deduplication: the
     * pairs really hold each series twice).
     */
    private static void assertFleetRanksBothClustersAndCountsAPairOnce(
            PromApi single,
            PromApi thanosQuery,
            Path mixin,
            String east,
            String west,
            Map<String, String> timing,
            Instant at) {
        GrafanaDashboard fleet = GrafanaDashboard.read(mixin.resolve("grafana/fleet-overview.json"));
        Map<String, String> all = new HashMap<>(timing);
        all.putAll(Map.of("cluster", "(" + String.join("|", CLUSTERS) + ")", "job", "(" + JOB + ")"));

        String top = expr(fleet, "Top 10 by copy-to-heap bytes/s", all);
        List<String> ranked = new ArrayList<>();
        JsonNode topAnswer = thanosQuery.query("sort_desc(" + top + ")", at, true);
        topAnswer.forEach(s -> ranked.add(s.path("metric").path("cluster").asText() + "/"
                + s.path("metric").path("instance").asText()));
        assertEquals(List.of("east/" + east, "west/" + west), ranked, "fleet top 10 through Thanos: " + topAnswer);

        String jobs = GrafanaDashboard.labelValuesSelector(GrafanaDashboard.variableQuery(fleet.variable("job")));
        Set<String> listed = new TreeSet<>();
        thanosQuery
                .query("group by (cluster, job) (" + PromQl.resolveGrafanaVariables(jobs, all) + ")", at, true)
                .forEach(s -> listed.add(s.path("metric").path("cluster").asText() + "/"
                        + s.path("metric").path("job").asText()));
        assertEquals(new TreeSet<>(List.of("east/" + JOB, "west/" + JOB)), listed, "the fleet's $job through Thanos");

        for (String title : List.of("Cluster copy-to-heap", "Instances up")) {
            String sum = expr(fleet, title, all);
            double once = value(single.query(sum, at, true));
            double deduplicated = value(thanosQuery.query(sum, at, true));
            double both = value(thanosQuery.query(sum, at, false));
            assertTrue(once > 0, title + " is 0 on the single Prometheus: " + sum);
            assertEquals(
                    once, deduplicated, once * ThanosTopology.SAME.relative(), title + " through Thanos Query: " + sum);
            assertEquals(
                    2 * once,
                    both,
                    2 * once * ThanosTopology.SAME.relative(),
                    title + " without deduplication: " + sum);
            System.out.printf(
                    "[thanos] fleet \"%s\": single Prometheus %.4g, Thanos Query %.4g, without dedup %.4g%n",
                    title, once, deduplicated, both);
        }
    }

    /** The firing alerts of {@value #ALERT}, the only one this test causes and checks once per server. */
    private static List<JsonNode> firing(JsonNode alerts) {
        return ThanosTopology.firing(alerts, ALERT);
    }

    /** {@value #ALERT} active in Alertmanager, as thanos rule sent it (its ruler label) or as the pairs did. */
    private static List<JsonNode> firingInAlertmanager(PromApi am, boolean fromRule) {
        List<JsonNode> firing = new ArrayList<>();
        for (JsonNode alert : am.alertmanagerAlerts()) {
            if (ALERT.equals(alert.path("labels").path("alertname").asText())
                    && alert.path("labels").has("ruler") == fromRule
                    && "active".equals(alert.path("status").path("state").asText())) {
                firing.add(alert);
            }
        }
        return firing;
    }

    /**
     * Every alert in Alertmanager, whichever path sent it, links the dashboard of the cluster in its labels:
     * a pair member evaluates with cluster only as an external label (absent from $labels), thanos rule
     * with cluster in the series. Returns how many alerts were checked.
     */
    private static int assertEveryDashboardLinkNamesItsCluster(JsonNode alerts) {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (JsonNode alert : alerts) {
            String cluster = alert.path("labels").path("cluster").asText();
            String link = alert.path("annotations").path("dashboard_url").asText();
            checked++;
            if (!CLUSTERS.contains(cluster) || !link.contains("?var-cluster=" + cluster + "&")) {
                wrong.add(alert.path("labels") + " -> " + link);
            }
        }
        assertEquals(List.of(), wrong, "dashboard_url without the alert's own cluster");
        return checked;
    }

    /**
     * Every distinct finding link of the rendered advice ({@code ; finding: <agent>/findings#anchor}) names a
     * page the agent at {@code target} serves and an {@code id} on it. Returns how many links were checked.
     */
    private static int assertEveryFindingLinkIsOnTheAgentsPage(Path alerts, String target) throws Exception {
        java.util.regex.Matcher link = java.util.regex.Pattern.compile(
                        "; finding: https?://[^/\\s]+/(findings|findings-security)#([a-z0-9-]+)")
                .matcher(Files.readString(alerts));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        Map<String, String> pages = new HashMap<>();
        Set<String> checked = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        while (link.find()) {
            String page = link.group(1);
            if (!pages.containsKey(page)) {
                java.net.http.HttpResponse<String> response = http.send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + target + "/" + page))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), "/" + page + " of " + target);
                pages.put(page, response.body());
            }
            if (checked.add(page + "#" + link.group(2)) && !pages.get(page).contains("id=\"" + link.group(2) + "\"")) {
                missing.add(page + "#" + link.group(2));
            }
        }
        assertEquals(List.of(), missing, "finding links to no anchor of the agent's page");
        assertTrue(checked.size() >= 9, "the rendered advice links the confirmed findings: " + checked);
        return checked.size();
    }

    private static void assertOncePerServer(List<JsonNode> alerts, String instance, String where) {
        assertEquals(1, alerts.size(), where + ": " + ALERT + " once, for " + instance + ": " + alerts);
        JsonNode labels = alerts.get(0).path("labels");
        assertEquals(instance, labels.path("instance").asText(), where + ": " + labels);
        assertEquals("east", labels.path("cluster").asText(), where + ": " + labels);
        assertFalse(labels.has("replica"), where + " keeps the replica label: " + labels);
    }

    private static void assertEveryHealthy(JsonNode groups, String where) {
        assertEquals(RuleFile.alerts().rules().size(), ThanosTopology.ruleCount(groups), where + ": rules loaded");
        assertEquals(List.of(), ThanosTopology.unhealthy(groups), where + ": rules that failed");
    }

    private static String expr(GrafanaDashboard dashboard, String title, Map<String, String> variables) {
        return PromQl.resolveGrafanaVariables(
                dashboard.queries().stream()
                        .filter(q -> q.panelTitle().equals(title))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no panel " + title))
                        .expr(),
                variables);
    }

    private static int count(JsonNode result) {
        return result.size();
    }

    private static double value(JsonNode result) {
        assertEquals(1, result.size(), result.toString());
        return Double.parseDouble(result.path(0).path("value").path(1).asText());
    }

    private static ChildProcess startServer(String java, Path agentJar, String classPath, Path log) throws Exception {
        return ChildProcess.start(
                List.of(
                        java,
                        "-Xmx256m",
                        "-javaagent:" + agentJar + "=127.0.0.1:0", // the agent's defaults
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
                        DashboardsEndToEndIT.FILTER),
                Map.of(),
                log);
    }

    /** Alertmanager alone (no gossip peers), every alert to a receiver that sends nothing. */
    private static Thanos.Component startAlertmanager(Path binary, Path home) throws Exception {
        Files.createDirectories(home);
        Path config = home.resolve("alertmanager.yml");
        Files.writeString(config, """
                route:
                  receiver: none
                  group_by: [alertname, cluster, instance]
                  group_wait: 1s
                  group_interval: 1s
                receivers:
                  - name: none
                """);
        String http = "127.0.0.1:" + FreePort.pick();
        ChildProcess process = ChildProcess.start(
                List.of(
                        binary.toString(),
                        "--config.file=" + config,
                        "--storage.path=" + home.resolve("data"),
                        "--web.listen-address=" + http,
                        "--cluster.listen-address=",
                        "--log.level=warn"),
                Map.of(),
                home.resolve("alertmanager.log"));
        return new Thanos.Component("alertmanager", process, http, null);
    }
}
