package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import java.util.function.BooleanSupplier;
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
 *       values within {@value #TOLERANCE_PERCENT} %, evaluated at one instant after the load with every
 *       rate window spanning the whole load (see {@link #SAME});</li>
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
    private static final List<String> REPLICAS = List.of("0", "1");
    private static final String JOB = PrometheusSetup.JOB;
    private static final String ALERT = "BlockscopeHotCopyPath";
    /** Copying scans: long enough for the 1 minute copy rate to pass 4 MiB/s (as DashboardsEndToEndIT). */
    private static final Duration LOAD = Duration.ofSeconds(25);

    static final int TOLERANCE_PERCENT = 10;
    /**
     * Two Prometheus servers scrape a target up to a second apart (1 s interval). The answers are compared
     * at one instant after the load, with every {@code $__rate_interval} and {@code $__range} spanning the
     * whole load, so a counter's increase is the same whichever second it was sampled in; what remains is
     * rate()'s extrapolation to the window's edges (under 1 s of a window of 40 s and more, 2.5 %) and the
     * gauges that move while idle (the JVM's own heap and threads: a few %). Values near zero (rates of
     * counters that tick while idle) get an absolute allowance.
     */
    static final AnswerComparison SAME = new AnswerComparison(TOLERANCE_PERCENT / 100.0, 1e-3, Set.of("replica"));

    /**
     * The agent's histogram of the scrapes it serves: every scraper adds its own scrapes to it (three a
     * second on each server here), so no two scrapers ever sample the same counts, and a p99 of a few slow
     * scrapes moves with the one a window's edge takes in or leaves out. Its series are compared, not its
     * values.
     */
    private static final String SCRAPES_THEMSELVES = "blockscope_scrape_duration_seconds";

    /**
     * Quantiles of the idle servers' GC pauses, raw or recorded: a handful of pauses in the window, so one
     * pause that falls between two scrapers' moments, or between two servers' rule evaluations, moves a
     * p99 by tens of percent (0.067 s against 0.084 s seen). Their series are compared, not their values;
     * the pause counts and rates are compared by value (and are what the settled instants are chosen by).
     */
    private static boolean gcPauseQuantile(String expr) {
        return expr.contains("gc_pause_seconds")
                && (expr.contains("histogram_quantile") || expr.contains("gc_pause_seconds:p"));
    }

    private static final AnswerComparison SAME_SERIES =
            new AnswerComparison(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Set.of("replica"));

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
        Path mixin = Mixin.render("{forShort: true, clusterLabel: 'cluster'}", dir.resolve("mixin"));
        List<Path> rules = List.of(mixin.resolve("recording-rules.yml"), mixin.resolve("alerts.yml"));

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
            Map<String, PrometheusServer> replicas = new LinkedHashMap<>();
            for (String cluster : CLUSTERS) {
                for (String replica : REPLICAS) {
                    Path home = dir.resolve("prometheus-" + cluster + "-" + replica);
                    Files.createDirectories(home);
                    Path config = home.resolve("prometheus.yml");
                    Files.writeString(
                            config,
                            pairMemberConfig(cluster, replica, targets.get(cluster), rules, alertmanager.http()));
                    PrometheusServer prometheus = PrometheusSetup.in(home)
                            .binary(prometheusBinary)
                            .configFile(config)
                            .start();
                    started.add(prometheus);
                    replicas.put(cluster + "-" + replica, prometheus);
                    Thanos.Component sidecar = Thanos.start(
                            thanos,
                            "sidecar " + cluster + "-" + replica,
                            "sidecar",
                            List.of(
                                    "--prometheus.url=http://" + prometheus.address(),
                                    "--tsdb.path=" + home.resolve("tsdb")),
                            dir.resolve("sidecar-" + cluster + "-" + replica + ".log"));
                    started.add(sidecar);
                    sidecars.add(sidecar);
                }
            }
            Path referenceHome = dir.resolve("prometheus-single");
            Files.createDirectories(referenceHome);
            Files.writeString(referenceHome.resolve("prometheus.yml"), singleConfig(targets, rules));
            PrometheusServer reference = PrometheusSetup.in(referenceHome)
                    .binary(prometheusBinary)
                    .configFile(referenceHome.resolve("prometheus.yml"))
                    .start();
            started.add(reference);
            Duration prometheusUp = Duration.between(t0, Instant.now());

            List<String> queryArgs = new ArrayList<>(List.of("--query.replica-label=replica"));
            for (Thanos.Component sidecar : sidecars) {
                sidecar.awaitReady(Duration.ofSeconds(30));
                queryArgs.add("--endpoint=" + sidecar.grpc());
            }
            Thanos.Component query = Thanos.start(thanos, "query", "query", queryArgs, dir.resolve("query.log"));
            started.add(query);
            query.awaitReady(Duration.ofSeconds(30));
            Path ruleData = dir.resolve("rule");
            Files.createDirectories(ruleData);
            Thanos.Component rule = Thanos.start(
                    thanos,
                    "rule",
                    "rule",
                    List.of(
                            "--data-dir=" + ruleData,
                            "--rule-file=" + mixin.resolve("alerts.yml"),
                            "--query=" + query.http(),
                            "--eval-interval=1s",
                            "--resend-delay=1s",
                            "--alertmanagers.url=http://" + alertmanager.http(),
                            "--label=ruler=\"global\""),
                    dir.resolve("rule.log"));
            started.add(rule);
            rule.awaitReady(Duration.ofSeconds(30));

            PromApi thanosQuery = new PromApi("thanos query", query.http());
            PromApi thanosRule = new PromApi("thanos rule", rule.http());
            PromApi single = new PromApi("the single Prometheus", reference.address());
            PromApi am = new PromApi("alertmanager", alertmanager.http());
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(60),
                            () -> answers(() -> count(thanosQuery.query("up == 1", Instant.now(), false)) == 4
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
                                () -> firing(ruleAlerts(thanosRule)).size() > 0
                                        && count(thanosQuery.query(
                                                        "ALERTS{alertname=\"" + ALERT + "\", alertstate=\"firing\"}",
                                                        Instant.now(),
                                                        false))
                                                == 2
                                        && firingInAlertmanager(am, true).size() > 0
                                        && firingInAlertmanager(am, false).size() > 0),
                        ALERT + " did not fire in thanos rule, both east replicas and Alertmanager (from both): rule "
                                + ruleAlerts(thanosRule) + " " + unhealthy(thanosRule.ruleGroups()) + "\n"
                                + rule.process().tail(10) + "\nreplicas "
                                + thanosQuery.query("ALERTS", Instant.now(), false) + "\nalertmanager "
                                + am.alertmanagerAlerts() + "\ncopy rate "
                                + thanosQuery.query("instance:blockscope_copy_to_heap_bytes:rate1m") + "\n"
                                + scans.tail(20));
                Duration firedAfter = Duration.between(loadStart, Instant.now());
                Poll.sleep(Duration.ofSeconds(3)); // both replicas have sent it a few times (resend delay 1 s)
                assertOncePerServer(firing(ruleAlerts(thanosRule)), east, "thanos rule");
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
            Instant at = settledInstant(single, thanosQuery);
            String window = Duration.between(settledStart(single, thanosQuery, loadStart), at)
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
                            () -> firing(ruleAlerts(thanosRule)).isEmpty()
                                    && firingInAlertmanager(am, true).isEmpty()
                                    && firingInAlertmanager(am, false).isEmpty()),
                    ALERT + " did not resolve after the copying stopped: rule " + ruleAlerts(thanosRule)
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
        List<String> problems = new ArrayList<>();
        int compared = 0;
        int withData = 0;
        double worst = 0;
        String worstWhere = "";
        int seriesCompared = 0;
        for (GrafanaDashboard dashboard : GrafanaDashboard.all(mixin.resolve("grafana"))) {
            List<Map<String, String>> views = new ArrayList<>();
            if (dashboard.fileName().contains("fleet")) {
                views.add(Map.of(
                        "cluster", "(" + String.join("|", CLUSTERS) + ")", "job", "(" + JOB + ")", "instance", ".*"));
            } else {
                targets.forEach(
                        (cluster, target) -> views.add(Map.of("cluster", cluster, "job", JOB, "instance", target)));
            }
            for (Map<String, String> view : views) {
                Map<String, String> variables = new HashMap<>(view);
                variables.putAll(timing);
                for (GrafanaDashboard.Query query : dashboard.queries()) {
                    String expr = PromQl.resolveGrafanaVariables(query.expr(), variables);
                    JsonNode expected = single.query(expr, at, true);
                    JsonNode actual = thanosQuery.query(expr, at, true);
                    boolean seriesOnly = expr.contains(SCRAPES_THEMSELVES) || gcPauseQuantile(expr);
                    AnswerComparison.Outcome outcome = (seriesOnly ? SAME_SERIES : SAME).compare(expected, actual);
                    if (seriesOnly) {
                        seriesCompared++;
                    }
                    compared++;
                    if (outcome.series() > 0) {
                        withData++;
                    }
                    if (!Double.isNaN(outcome.worstRelative())) {
                        if (!seriesOnly && outcome.worstRelative() > worst) {
                            worst = outcome.worstRelative();
                            worstWhere = query.where() + " " + view.get("cluster");
                        }
                    }
                    if (!outcome.differences().isEmpty()) {
                        problems.add(query.where() + " " + view + ": " + expr + "\n    " + outcome.differences());
                    }
                }
            }
        }
        assertEquals(List.of(), problems, "dashboard queries that answer otherwise through Thanos Query");
        assertTrue(compared > 80, "expected both dashboards' queries for three views, compared " + compared);
        assertTrue(withData > compared / 2, "only " + withData + " of " + compared + " queries had data");
        System.out.printf(
                "[thanos] all %d dashboard queries (%d with data) answer through Thanos Query as on one Prometheus;"
                        + " largest relative difference %.2f %% (allowed %d %%), %s; %d of them (scrape duration, GC"
                        + " pause quantiles) compared by series only%n",
                compared, withData, worst * 100, TOLERANCE_PERCENT, worstWhere, seriesCompared);
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
        all.putAll(Map.of("cluster", "(" + String.join("|", CLUSTERS) + ")", "job", "(" + JOB + ")", "instance", ".*"));

        String top = expr(fleet, "Top 10 by copy-to-heap bytes/s", all);
        List<String> ranked = new ArrayList<>();
        JsonNode topAnswer = thanosQuery.query("sort_desc(" + top + ")", at, true);
        topAnswer.forEach(s -> ranked.add(s.path("metric").path("cluster").asText() + "/"
                + s.path("metric").path("instance").asText()));
        assertEquals(List.of("east/" + east, "west/" + west), ranked, "fleet top 10 through Thanos: " + topAnswer);

        String instances =
                GrafanaDashboard.labelValuesSelector(GrafanaDashboard.variableQuery(fleet.variable("instance")));
        Set<String> listed = new TreeSet<>();
        thanosQuery
                .query("group by (instance) (" + PromQl.resolveGrafanaVariables(instances, all) + ")", at, true)
                .forEach(s -> listed.add(s.path("metric").path("instance").asText()));
        assertEquals(new TreeSet<>(List.of(east, west)), listed, "the fleet's $instance through Thanos");

        for (String title : List.of("Cluster copy-to-heap", "Instances up")) {
            String sum = expr(fleet, title, all);
            double once = value(single.query(sum, at, true));
            double deduplicated = value(thanosQuery.query(sum, at, true));
            double both = value(thanosQuery.query(sum, at, false));
            assertTrue(once > 0, title + " is 0 on the single Prometheus: " + sum);
            assertEquals(once, deduplicated, once * SAME.relative(), title + " through Thanos Query: " + sum);
            assertEquals(2 * once, both, 2 * once * SAME.relative(), title + " without deduplication: " + sum);
            System.out.printf(
                    "[thanos] fleet \"%s\": single Prometheus %.4g, Thanos Query %.4g, without dedup %.4g%n",
                    title, once, deduplicated, both);
        }
    }

    /** The counters whose one extra event moves a panel far (a GC pause in a p99 of a few pauses). */
    private static final String COUNTS =
            "sum by (cluster, instance, __name__) ({__name__=~\"blockscope_(gc_pause_seconds_count"
                    + "|copy_to_heap_bytes_total|copy_site_bytes_total|block_cache_gets_total|block_leaks_total)\", job=\""
                    + JOB
                    + "\"})";

    /**
     * A second after the load at which the single Prometheus and the querier (the replica it picked) hold
     * the same counts in their latest samples. Each scrapes at its own moment within the 1 s interval: an
     * event (a GC pause of the idle JVM) that falls between two scrapers' moments shows in one answer and
     * not the other; a second later or so, both have it.
     */
    private static Instant settledInstant(PromApi single, PromApi thanosQuery) {
        Poll.sleep(Duration.ofSeconds(4)); // every scraper has sampled the idle servers
        Instant at = Instant.ofEpochSecond(Instant.now().getEpochSecond() - 2);
        for (int attempt = 0; attempt < 30; attempt++, at = at.plusSeconds(1)) {
            while (at.isAfter(Instant.now().minusSeconds(2))) {
                Poll.sleep(Duration.ofMillis(500));
            }
            // Two quiet seconds: a rule evaluated within the last second saw the same samples too.
            if (sameCounts(single, thanosQuery, at.minusSeconds(1)) && sameCounts(single, thanosQuery, at)) {
                return at;
            }
        }
        throw new AssertionError("in 30 s after the load the querier's counts never matched the single Prometheus'");
    }

    /**
     * The start of the comparison windows: a second before the load at which, as at the end, both hold the
     * same counts in the first samples inside the window.
     */
    private static Instant settledStart(PromApi single, PromApi thanosQuery, Instant loadStart) {
        Instant start = Instant.ofEpochSecond(loadStart.getEpochSecond() - 3);
        for (int attempt = 0; attempt < 10; attempt++, start = start.minusSeconds(1)) {
            if (sameCounts(single, thanosQuery, start) && sameCounts(single, thanosQuery, start.plusSeconds(1))) {
                return start;
            }
        }
        throw new AssertionError(
                "in the 10 s before the load the querier's counts never matched the single" + " Prometheus'");
    }

    private static boolean sameCounts(PromApi single, PromApi thanosQuery, Instant at) {
        return new AnswerComparison(0, 0, Set.of("replica"))
                .compare(single.query(COUNTS, at, true), thanosQuery.query(COUNTS, at, true))
                .differences()
                .isEmpty();
    }

    /**
     * The alerts of thanos rule, from its rules API: its {@code /api/v1/alerts} answers {@code "Alerts": null}
     * (Go's field name, unlike Prometheus' {@code "alerts"}) whatever fires.
     */
    private static JsonNode ruleAlerts(PromApi rule) {
        ArrayNode alerts = JsonNodeFactory.instance.arrayNode();
        for (JsonNode group : rule.ruleGroups()) {
            for (JsonNode r : group.path("rules")) {
                r.path("alerts").forEach(alerts::add);
            }
        }
        return alerts;
    }

    /** The firing alerts of {@value #ALERT}, the only one this test causes and checks once per server. */
    private static List<JsonNode> firing(JsonNode alerts) {
        List<JsonNode> firing = new ArrayList<>();
        for (JsonNode alert : alerts) {
            if (ALERT.equals(alert.path("labels").path("alertname").asText())
                    && "firing".equals(alert.path("state").asText())) {
                firing.add(alert);
            }
        }
        return firing;
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
        int rules = 0;
        for (JsonNode group : groups) {
            rules += group.path("rules").size();
        }
        assertEquals(RuleFile.alerts().rules().size(), rules, where + ": rules loaded");
        assertEquals(List.of(), unhealthy(groups), where + ": rules that failed");
    }

    private static List<String> unhealthy(JsonNode groups) {
        List<String> problems = new ArrayList<>();
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                if (!"ok".equals(rule.path("health").asText())) {
                    problems.add(rule.path("name").asText() + ": "
                            + rule.path("health").asText() + ", "
                            + rule.path("lastError").asText());
                }
            }
        }
        return problems;
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

    /** The condition, false while the querier still refuses (no StoreAPI found yet: it polls its endpoints). */
    private static boolean answers(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (AssertionError notYet) {
            return false;
        }
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

    /**
     * One of a pair: external labels {@code cluster} and {@code replica} (the sidecar serves its series
     * with them; Thanos Query deduplicates on replica), the rules, and alerts to Alertmanager without
     * {@code replica}, so the pair's two copies of an alert have one label set.
     */
    private static String pairMemberConfig(
            String cluster, String replica, String target, List<Path> rules, String alertmanager) {
        return "global:\n"
                + "  scrape_interval: 1s\n"
                + "  scrape_timeout: 1s\n"
                + "  evaluation_interval: 1s\n"
                + "  external_labels:\n"
                + "    cluster: '" + cluster + "'\n"
                + "    replica: '" + replica + "'\n"
                + ruleFiles(rules)
                + "alerting:\n"
                + "  alert_relabel_configs:\n"
                + "    - action: labeldrop\n"
                + "      regex: replica\n"
                + "  alertmanagers:\n"
                + "    - static_configs:\n"
                + "        - targets: ['" + alertmanager + "']\n"
                + "scrape_configs:\n"
                + "  - job_name: '" + JOB + "'\n"
                + "    static_configs:\n"
                + "      - targets: ['" + target + "']\n";
    }

    /** The yardstick: one Prometheus scraping every cluster's server, the cluster a target label. */
    private static String singleConfig(Map<String, String> targets, List<Path> rules) {
        StringBuilder yaml = new StringBuilder("global:\n"
                + "  scrape_interval: 1s\n"
                + "  scrape_timeout: 1s\n"
                + "  evaluation_interval: 1s\n"
                + ruleFiles(rules)
                + "scrape_configs:\n"
                + "  - job_name: '" + JOB + "'\n"
                + "    static_configs:\n");
        targets.forEach((cluster, target) -> yaml.append("      - targets: ['")
                .append(target)
                .append("']\n        labels:\n          cluster: '")
                .append(cluster)
                .append("'\n"));
        return yaml.toString();
    }

    private static String ruleFiles(List<Path> rules) {
        StringBuilder yaml = new StringBuilder("rule_files:\n");
        rules.forEach(r -> yaml.append("  - '").append(r.toAbsolutePath()).append("'\n"));
        return yaml.toString();
    }
}
