package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.dashboards.PromApi;
import io.blockscope.dashboards.Thanos;
import io.blockscope.dashboards.ThanosTopology;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real RegionServer (this module's release, the agent at its defaults) behind the Thanos topology of the
 * dashboards module's ThanosTopologyIT: cluster "east" scraped by a Prometheus HA pair (external labels
 * {@code cluster}, {@code replica} "0"/"1", the mixin's rules rendered with {@code clusterLabel: 'cluster'},
 * a {@code thanos sidecar} each), one {@code thanos query} deduplicating on {@code replica}, {@code thanos
 * rule} evaluating the alerts against it, and the single Prometheus as the yardstick. {@value #USER} scans
 * {@value #TABLE} through HBase's own copying filter for {@link #LOAD}. Then:
 * <ol>
 *   <li>BlockscopeHotCopyPath fires once in thanos rule (both replicas fire it), its table and user
 *       annotations naming {@value #TABLE} and {@value #USER};</li>
 *   <li>every query of the dashboards (the hbase2 panels, copy owners and whose leaks, included) and the
 *       site-owner rule answer through Thanos Query what they answer on the single Prometheus;</li>
 *   <li>the site-owner counter of that table and user counts the pair once, and twice without
 *       deduplication.</li>
 * </ol>
 * Needs {@value Thanos#VARIABLE} ({@code .ci/thanos.sh}): skipped without it, failed on CI.
 */
class RegionServerThanosTest {

    static final String AGENT = "";
    private static final String CLUSTER = "east";
    private static final String JOB = RegionServerPrometheus.JOB;
    private static final String ALERT = "BlockscopeHotCopyPath";
    static final String TABLE = "shop:orders";
    static final String USER = "alice";
    /** HBase's copy site of the stock filter, as the agent names it (sampled at its default rate). */
    private static final String FILTER_SITE =
            "org.apache.hadoop.hbase.filter.SingleColumnValueFilter(RegexStringComparator).filterColumnValue";
    /** Copying scans: long enough for the 1 minute copy rate to pass 4 MiB/s (as ThanosTopologyIT). */
    private static final Duration LOAD = Duration.ofSeconds(25);

    private static final String SITE_OWNER_RULE = "instance_site_owner:blockscope_copy_site_owner_bytes:rate1m";
    private static final String SITE_OWNERS = "blockscope_copy_site_owner_bytes_total";

    @Test
    void aRegionServerBehindAPrometheusPairAnswersThroughThanosAsOnOnePrometheusAndAlertsOnce(@TempDir Path dir)
            throws Exception {
        Path thanos = Thanos.binary(System.getenv()); // skips (locally) or fails (CI) before anything starts
        Path prometheusBinary = PrometheusSetup.onPath("prometheus");
        Path mixin = ThanosTopology.renderMixin(
                Path.of(RegionServerProcess.required("blockscope.dashboards")), dir.resolve("mixin"));
        List<Path> rules = ThanosTopology.rules(mixin);
        List<AutoCloseable> started = new ArrayList<>();
        try {
            Instant t0 = Instant.now();
            RegionServerProcess server =
                    RegionServerProcess.builder().agent(AGENT).start();
            started.add(server);
            String target = server.metricsUri().getAuthority();
            List<Thanos.Component> sidecars = new ArrayList<>();
            for (String replica : ThanosTopology.REPLICAS) {
                ThanosTopology.Member member = ThanosTopology.startPairMember(
                        thanos, prometheusBinary, dir, JOB, CLUSTER, replica, target, rules, null);
                started.add(member);
                sidecars.add(member.sidecar());
            }
            PrometheusServer reference =
                    ThanosTopology.startSingle(prometheusBinary, dir, JOB, Map.of(CLUSTER, target), rules);
            started.add(reference);
            Thanos.Component query = ThanosTopology.startQuery(thanos, sidecars, dir.resolve("query.log"));
            started.add(query);
            Thanos.Component rule = ThanosTopology.startRule(thanos, mixin.resolve("alerts.yml"), query, null, dir);
            started.add(rule);
            PromApi thanosQuery = new PromApi("thanos query", query.http());
            PromApi thanosRule = new PromApi("thanos rule", rule.http());
            PromApi single = new PromApi("the single Prometheus", reference.address());

            Connection admin = ConnectionFactory.createConnection(server.clientConfiguration());
            started.add(admin);
            try (Admin a = admin.getAdmin()) {
                a.createNamespace(NamespaceDescriptor.create("shop").build());
            }
            started.add(Workload.create(server, TABLE));
            Connection user = Workload.connectionAs(server, USER);
            started.add(user);
            // a plain scan caches every block in the offheap BucketCache and copies no value
            assertEquals(Workload.ROWS, scan(user, false), "rows of a plain scan");
            assertTrue(
                    Poll.until(
                            Duration.ofSeconds(60),
                            () -> ThanosTopology.answers(() -> thanosQuery
                                                    .query("up == 1", Instant.now(), false)
                                                    .size()
                                            == 2
                                    && thanosQuery.query("up == 1").size() == 1
                                    && single.query("up == 1").size() == 1)),
                    "the pair does not scrape the RegionServer through the querier: "
                            + thanosQuery.query("up", Instant.now(), false) + "\nsingle: " + single.query("up")
                            + "\n" + query.process().tail(20));
            System.out.println("[rs thanos] RegionServer, pair, querier and ruler up in "
                    + Duration.between(t0, Instant.now()).toSeconds() + " s (RegionServer "
                    + server.startup().toSeconds() + " s)");

            Instant loadStart = Instant.now();
            CompletableFuture<Integer> scans = CompletableFuture.supplyAsync(() -> copyingScans(user, LOAD));
            assertTrue(
                    Poll.until(
                            LOAD.plusSeconds(30),
                            () -> ThanosTopology.firing(ThanosTopology.ruleAlerts(thanosRule), ALERT)
                                            .size()
                                    > 0),
                    ALERT + " did not fire in thanos rule: " + ThanosTopology.ruleAlerts(thanosRule) + " "
                            + ThanosTopology.unhealthy(thanosRule.ruleGroups()) + "\n"
                            + rule.process().tail(10) + "\ncopy rate "
                            + thanosQuery.query("instance:blockscope_copy_to_heap_bytes:rate1m"));
            Duration firedAfter = Duration.between(loadStart, Instant.now());
            Poll.sleep(Duration.ofSeconds(3)); // both replicas' rules have evaluated it firing too
            List<JsonNode> firing = ThanosTopology.firing(ThanosTopology.ruleAlerts(thanosRule), ALERT);
            JsonNode replicasFiring = thanosQuery.query(
                    "ALERTS{alertname=\"" + ALERT + "\", alertstate=\"firing\"}", Instant.now(), false);
            assertEquals(1, firing.size(), "thanos rule: " + ALERT + " once, for " + target + ": " + firing);
            JsonNode labels = firing.get(0).path("labels");
            JsonNode annotations = firing.get(0).path("annotations");
            assertAll(
                    () -> assertEquals(target, labels.path("instance").asText(), labels.toString()),
                    () -> assertEquals(CLUSTER, labels.path("cluster").asText(), labels.toString()),
                    () -> assertFalse(labels.has("replica"), "thanos rule keeps the replica label: " + labels),
                    () -> assertEquals(TABLE, annotations.path("table").asText(), annotations.toString()),
                    () -> assertEquals(USER, annotations.path("user").asText(), annotations.toString()),
                    () -> assertTrue(
                            annotations.path("site").asText().startsWith(FILTER_SITE),
                            "the stock filter's copy site: " + annotations.path("site")),
                    () -> assertEquals(
                            2, replicasFiring.size(), "both replicas fire it themselves: " + replicasFiring));
            int copyingScans = scans.get(LOAD.toSeconds() + 60, TimeUnit.SECONDS);
            System.out.println("[rs thanos] " + ALERT + " firing once in thanos rule after " + firedAfter.toSeconds()
                    + " s of load (" + copyingScans + " copying scans by " + USER + " in " + LOAD.toSeconds()
                    + " s; both replicas firing it): table "
                    + annotations.path("table").asText() + ", user "
                    + annotations.path("user").asText() + ", site "
                    + annotations.path("site").asText());

            Instant at = ThanosTopology.settledInstant(single, thanosQuery, JOB);
            String window = Duration.between(ThanosTopology.settledStart(single, thanosQuery, JOB, loadStart), at)
                            .toSeconds()
                    + "s";
            Map<String, String> timing = Map.of("__rate_interval", window, "__interval", "1s", "__range", window);
            assertEquals(List.of(), ThanosTopology.unhealthy(thanosRule.ruleGroups()), "thanos rule's rules");
            assertEveryAnswerMatches(single, thanosQuery, mixin, target, timing, at);
            assertThePairCountsOnceDeduplicatedAndTwiceNot(single, thanosQuery, at);
            System.out.println("[rs thanos] whole test "
                    + Duration.between(t0, Instant.now()).toSeconds() + " s");
        } finally {
            Collections.reverse(started);
            for (AutoCloseable resource : started) {
                resource.close();
            }
        }
    }

    /**
     * Every dashboard query for the RegionServer's view (the fleet's over its cluster), and the site-owner
     * rule, at {@code at}: as on the single Prometheus through Thanos Query.
     */
    private static void assertEveryAnswerMatches(
            PromApi single, PromApi thanosQuery, Path mixin, String target, Map<String, String> timing, Instant at) {
        ThanosTopology.Comparison comparison = ThanosTopology.compareDashboards(
                single,
                thanosQuery,
                mixin.resolve("grafana"),
                dashboard -> List.of(
                        dashboard.fileName().contains("fleet")
                                ? Map.of("cluster", "(" + CLUSTER + ")", "job", "(" + JOB + ")")
                                : Map.of("cluster", CLUSTER, "job", JOB, "instance", target)),
                timing,
                at);
        String rule = SITE_OWNER_RULE + "{job=\"" + JOB + "\", instance=\"" + target + "\"}";
        JsonNode owners = single.query(rule, at, true);
        List<String> ruleDifferences = ThanosTopology.SAME
                .compare(owners, thanosQuery.query(rule, at, true))
                .differences();
        assertAll(
                () -> assertEquals(
                        List.of(), comparison.problems(), "dashboard queries that answer otherwise through Thanos"),
                () -> assertEquals(List.of(), ruleDifferences, rule + " through Thanos Query"),
                () -> assertTrue(hasOwner(owners), rule + " names " + TABLE + " and " + USER + ": " + owners),
                () -> assertTrue(
                        comparison
                                .titlesWithData()
                                .containsAll(List.of(
                                        "Copy-to-heap bytes/s by table (HBase)",
                                        "Copy-to-heap bytes/s by user (HBase)")),
                        "the copy owners panels had data: " + comparison.titlesWithData()),
                () -> assertTrue(
                        comparison
                                .titles()
                                .containsAll(List.of(
                                        "Leaks by table (HBase 2.3+)",
                                        "Heap fallback bytes by table (HBase 2.3+)",
                                        "Pool buffers stuck by table (HBase 2.3+)")),
                        "the whose-leaks row was compared: " + comparison.titles()),
                () -> assertTrue(
                        comparison.withData() > comparison.compared() / 2,
                        "only " + comparison.withData() + " of " + comparison.compared() + " queries had data"));
        System.out.printf(
                "[rs thanos] all %d dashboard queries (%d with data) and %s answer through Thanos Query as on one"
                        + " Prometheus; largest relative difference %.2f %% (allowed %d %%), %s; %d compared by series"
                        + " only%n",
                comparison.compared(),
                comparison.withData(),
                SITE_OWNER_RULE,
                comparison.worst() * 100,
                ThanosTopology.TOLERANCE_PERCENT,
                comparison.worstWhere(),
                comparison.seriesOnly());
    }

    /** The site-owner counter of the table and user: once deduplicated, twice with deduplication off. */
    private static void assertThePairCountsOnceDeduplicatedAndTwiceNot(
            PromApi single, PromApi thanosQuery, Instant at) {
        String selector = SITE_OWNERS + "{job=\"" + JOB + "\", table=\"" + TABLE + "\", user=\"" + USER + "\"}";
        for (String sum : List.of("sum(" + selector + ")", "count(" + selector + ")")) {
            double once = value(single.query(sum, at, true));
            double deduplicated = value(thanosQuery.query(sum, at, true));
            double both = value(thanosQuery.query(sum, at, false));
            double tolerance = ThanosTopology.SAME.relative();
            assertTrue(once > 0, sum + " is 0 on the single Prometheus");
            assertEquals(once, deduplicated, once * tolerance, sum + " through Thanos Query");
            assertEquals(2 * once, both, 2 * once * tolerance, sum + " without deduplication");
            System.out.printf(
                    "[rs thanos] %s: single Prometheus %.4g, Thanos Query %.4g, without dedup %.4g%n",
                    sum, once, deduplicated, both);
        }
    }

    private static boolean hasOwner(JsonNode answer) {
        for (JsonNode series : answer) {
            if (TABLE.equals(series.path("metric").path("table").asText())
                    && USER.equals(series.path("metric").path("user").asText())) {
                return true;
            }
        }
        return false;
    }

    private static double value(JsonNode result) {
        assertEquals(1, result.size(), result.toString());
        return Double.parseDouble(result.path(0).path("value").path(1).asText());
    }

    /** Copying scans of the table, one after another, for {@code load}; returns how many ran. */
    private static int copyingScans(Connection connection, Duration load) {
        long end = System.nanoTime() + load.toNanos();
        int scans = 0;
        try {
            while (System.nanoTime() < end) {
                assertEquals(0, scan(connection, true), "the filter drops every row");
                scans++;
            }
        } catch (IOException e) {
            throw new AssertionError("copying scan " + scans + " failed", e);
        }
        return scans;
    }

    private static int scan(Connection connection, boolean copying) throws IOException {
        Scan scan = new Scan().setCaching(500);
        if (copying) {
            scan.setFilter(Workload.regexDroppingEveryRow());
        }
        int rows = 0;
        try (Table table = connection.getTable(TableName.valueOf(TABLE));
                ResultScanner scanner = table.getScanner(scan)) {
            for (Result ignored : scanner) {
                rows++;
            }
        }
        return rows;
    }
}
