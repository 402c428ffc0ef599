package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The pieces of the Thanos topology {@link ThanosTopologyIT} runs, for any agent behind it (the example
 * server there, a real RegionServer in the hbase-rs-it module): the mixin rendered with {@code cluster} as its
 * cluster label and short {@code for}s, a Prometheus HA pair member (external labels {@code cluster},
 * {@code replica}) with its {@code thanos sidecar}, the single-Prometheus yardstick, {@code thanos query}
 * deduplicating on {@code replica}, {@code thanos rule} against it, and the comparison of every dashboard
 * query between the yardstick and the querier at one settled instant.
 */
public final class ThanosTopology {

    /** The mixin's settings the topology runs: cluster an external label, alerts firing within seconds. */
    public static final String MIXIN_CONFIG = "{forShort: true, clusterLabel: 'cluster'}";

    public static final List<String> REPLICAS = List.of("0", "1");

    public static final int TOLERANCE_PERCENT = 10;
    /**
     * Two Prometheus servers scrape a target up to a second apart (1 s interval). The answers are compared
     * at one instant after the load, with every {@code $__rate_interval} and {@code $__range} spanning the
     * whole load, so a counter's increase is the same whichever second it was sampled in; what remains is
     * rate()'s extrapolation to the window's edges (under 1 s of a window of 40 s and more, 2.5 %) and the
     * gauges that move while idle (the JVM's own heap and threads: a few %). Values near zero (rates of
     * counters that tick while idle) get an absolute allowance.
     */
    public static final AnswerComparison SAME =
            new AnswerComparison(TOLERANCE_PERCENT / 100.0, 1e-3, Set.of("replica"));

    static final AnswerComparison SAME_SERIES =
            new AnswerComparison(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Set.of("replica"));

    /**
     * The agent's histogram of the scrapes it serves: every scraper adds its own scrapes to it (three a
     * second on each server here), so no two scrapers ever sample the same counts, and a p99 of a few slow
     * scrapes moves with the one a window's edge takes in or leaves out. Its series are compared, not its
     * values.
     */
    private static final String SCRAPES_THEMSELVES = "blockscope_scrape_duration_seconds";

    private ThanosTopology() {}

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

    /** Renders the mixin of {@code dashboards} (its render.sh) with {@link #MIXIN_CONFIG} into {@code out}. */
    public static Path renderMixin(Path dashboards, Path out) {
        return Mixin.render(dashboards, MIXIN_CONFIG, out);
    }

    /** The rendered recording rules and alerts, as every Prometheus of the topology loads them. */
    public static List<Path> rules(Path mixin) {
        return List.of(mixin.resolve("recording-rules.yml"), mixin.resolve("alerts.yml"));
    }

    /** One member of a Prometheus HA pair and its sidecar; closing stops the sidecar, then Prometheus. */
    public record Member(PrometheusServer prometheus, Thanos.Component sidecar) implements AutoCloseable {
        @Override
        public void close() {
            try {
                sidecar.close();
            } finally {
                prometheus.close();
            }
        }
    }

    /**
     * Starts replica {@code replica} of cluster {@code cluster}'s pair in {@code dir}: a Prometheus scraping
     * {@code target} as {@code job} (see {@link #pairMemberConfig}) and its {@code thanos sidecar}.
     */
    public static Member startPairMember(
            Path thanos,
            Path prometheusBinary,
            Path dir,
            String job,
            String cluster,
            String replica,
            String target,
            List<Path> rules,
            String alertmanager)
            throws IOException, InterruptedException {
        String name = cluster + "-" + replica;
        Path home = dir.resolve("prometheus-" + name);
        Files.createDirectories(home);
        Path config = home.resolve("prometheus.yml");
        Files.writeString(config, pairMemberConfig(job, cluster, replica, target, rules, alertmanager));
        PrometheusServer prometheus = PrometheusSetup.in(home)
                .binary(prometheusBinary)
                .configFile(config)
                .start();
        try {
            Thanos.Component sidecar = Thanos.start(
                    thanos,
                    "sidecar " + name,
                    "sidecar",
                    List.of("--prometheus.url=http://" + prometheus.address(), "--tsdb.path=" + home.resolve("tsdb")),
                    dir.resolve("sidecar-" + name + ".log"));
            return new Member(prometheus, sidecar);
        } catch (IOException | RuntimeException e) {
            prometheus.close();
            throw e;
        }
    }

    /** The yardstick in {@code dir}/prometheus-single: one Prometheus holding every cluster's series. */
    public static PrometheusServer startSingle(
            Path prometheusBinary, Path dir, String job, Map<String, String> targets, List<Path> rules)
            throws IOException, InterruptedException {
        Path home = dir.resolve("prometheus-single");
        Files.createDirectories(home);
        Files.writeString(home.resolve("prometheus.yml"), singleConfig(job, targets, rules));
        return PrometheusSetup.in(home)
                .binary(prometheusBinary)
                .configFile(home.resolve("prometheus.yml"))
                .start();
    }

    /** {@code thanos query} over the sidecars (each awaited first), deduplicating on {@code replica}; ready. */
    public static Thanos.Component startQuery(Path thanos, List<Thanos.Component> sidecars, Path log)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--query.replica-label=replica"));
        for (Thanos.Component sidecar : sidecars) {
            sidecar.awaitReady(Duration.ofSeconds(30));
            args.add("--endpoint=" + sidecar.grpc());
        }
        Thanos.Component query = Thanos.start(thanos, "query", "query", args, log);
        try {
            return query.awaitReady(Duration.ofSeconds(30));
        } catch (AssertionError | InterruptedException e) {
            query.close();
            throw e;
        }
    }

    /**
     * {@code thanos rule} evaluating {@code alerts} every second against {@code query}, its data in
     * {@code dir}/rule, sending to {@code alertmanager} (host:port) unless null; labelled {@code ruler="global"}.
     */
    public static Thanos.Component startRule(
            Path thanos, Path alerts, Thanos.Component query, String alertmanager, Path dir)
            throws IOException, InterruptedException {
        Path data = dir.resolve("rule");
        Files.createDirectories(data);
        List<String> args = new ArrayList<>(List.of(
                "--data-dir=" + data,
                "--rule-file=" + alerts,
                "--query=" + query.http(),
                "--eval-interval=1s",
                "--resend-delay=1s",
                "--label=ruler=\"global\""));
        if (alertmanager != null) {
            args.add("--alertmanagers.url=http://" + alertmanager);
        }
        Thanos.Component rule = Thanos.start(thanos, "rule", "rule", args, dir.resolve("rule.log"));
        try {
            return rule.awaitReady(Duration.ofSeconds(30));
        } catch (AssertionError | InterruptedException e) {
            rule.close();
            throw e;
        }
    }

    /**
     * One of a pair: external labels {@code cluster} and {@code replica} (the sidecar serves its series
     * with them; Thanos Query deduplicates on replica), the rules, and, when {@code alertmanager} is not null,
     * alerts to it without {@code replica}, so the pair's two copies of an alert have one label set.
     */
    static String pairMemberConfig(
            String job, String cluster, String replica, String target, List<Path> rules, String alertmanager) {
        String alerting = alertmanager == null
                ? ""
                : "alerting:\n"
                        + "  alert_relabel_configs:\n"
                        + "    - action: labeldrop\n"
                        + "      regex: replica\n"
                        + "  alertmanagers:\n"
                        + "    - static_configs:\n"
                        + "        - targets: ['" + alertmanager + "']\n";
        return "global:\n"
                + "  scrape_interval: 1s\n"
                + "  scrape_timeout: 1s\n"
                + "  evaluation_interval: 1s\n"
                + "  external_labels:\n"
                + "    cluster: '" + cluster + "'\n"
                + "    replica: '" + replica + "'\n"
                + ruleFiles(rules)
                + alerting
                + "scrape_configs:\n"
                + "  - job_name: '" + job + "'\n"
                + "    static_configs:\n"
                + "      - targets: ['" + target + "']\n";
    }

    /** The yardstick: one Prometheus scraping every cluster's server, the cluster a target label. */
    static String singleConfig(String job, Map<String, String> targets, List<Path> rules) {
        StringBuilder yaml = new StringBuilder("global:\n"
                + "  scrape_interval: 1s\n"
                + "  scrape_timeout: 1s\n"
                + "  evaluation_interval: 1s\n"
                + ruleFiles(rules)
                + "scrape_configs:\n"
                + "  - job_name: '" + job + "'\n"
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

    /**
     * What comparing every dashboard query found; {@code problems} empty when all answered the same;
     * {@code titles} the panels compared, {@code titlesWithData} those with a series in some answer.
     */
    public record Comparison(
            int compared,
            int withData,
            int seriesOnly,
            double worst,
            String worstWhere,
            List<String> problems,
            Set<String> titles,
            Set<String> titlesWithData) {}

    /**
     * Every query of the dashboards in {@code grafana} at {@code at}, once per view {@code views} gives the
     * dashboard (its variables), on the single Prometheus and through the querier (deduplicated). Scrape
     * durations and GC pause quantiles are compared by series only (see above).
     */
    public static Comparison compareDashboards(
            PromApi single,
            PromApi thanosQuery,
            Path grafana,
            Function<GrafanaDashboard, List<Map<String, String>>> views,
            Map<String, String> timing,
            Instant at) {
        List<String> problems = new ArrayList<>();
        int compared = 0;
        int withData = 0;
        double worst = 0;
        String worstWhere = "";
        int seriesCompared = 0;
        Set<String> titles = new TreeSet<>();
        Set<String> titlesWithData = new TreeSet<>();
        for (GrafanaDashboard dashboard : GrafanaDashboard.all(grafana)) {
            for (Map<String, String> view : views.apply(dashboard)) {
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
                    titles.add(query.panelTitle());
                    if (outcome.series() > 0) {
                        withData++;
                        titlesWithData.add(query.panelTitle());
                    }
                    if (!seriesOnly && !Double.isNaN(outcome.worstRelative()) && outcome.worstRelative() > worst) {
                        worst = outcome.worstRelative();
                        worstWhere = query.where() + " " + view.get("cluster");
                    }
                    if (!outcome.differences().isEmpty()) {
                        problems.add(query.where() + " " + view + ": " + expr + "\n    " + outcome.differences());
                    }
                }
            }
        }
        return new Comparison(compared, withData, seriesCompared, worst, worstWhere, problems, titles, titlesWithData);
    }

    /** The counters whose one extra event moves a panel far (a GC pause in a p99 of a few pauses). */
    private static String counts(String job) {
        return "sum by (cluster, instance, __name__) ({__name__=~\"blockscope_(gc_pause_seconds_count"
                + "|copy_to_heap_bytes_total|copy_site_bytes_total|block_cache_gets_total|block_leaks_total)\", job=\""
                + job + "\"})";
    }

    /**
     * A second after the load at which the single Prometheus and the querier (the replica it picked) hold
     * the same counts in their latest samples. Each scrapes at its own moment within the 1 s interval: an
     * event (a GC pause of the idle JVM) that falls between two scrapers' moments shows in one answer and
     * not the other; a second later or so, both have it.
     */
    public static Instant settledInstant(PromApi single, PromApi thanosQuery, String job) {
        Poll.sleep(Duration.ofSeconds(4)); // every scraper has sampled the idle servers
        Instant at = Instant.ofEpochSecond(Instant.now().getEpochSecond() - 2);
        for (int attempt = 0; attempt < 30; attempt++, at = at.plusSeconds(1)) {
            while (at.isAfter(Instant.now().minusSeconds(2))) {
                Poll.sleep(Duration.ofMillis(500));
            }
            // Two quiet seconds: a rule evaluated within the last second saw the same samples too.
            if (sameCounts(single, thanosQuery, job, at.minusSeconds(1)) && sameCounts(single, thanosQuery, job, at)) {
                return at;
            }
        }
        throw new AssertionError("in 30 s after the load the querier's counts never matched the single Prometheus'");
    }

    /**
     * The start of the comparison windows: a second before the load at which, as at the end, both hold the
     * same counts in the first samples inside the window.
     */
    public static Instant settledStart(PromApi single, PromApi thanosQuery, String job, Instant loadStart) {
        Instant start = Instant.ofEpochSecond(loadStart.getEpochSecond() - 3);
        for (int attempt = 0; attempt < 10; attempt++, start = start.minusSeconds(1)) {
            if (sameCounts(single, thanosQuery, job, start)
                    && sameCounts(single, thanosQuery, job, start.plusSeconds(1))) {
                return start;
            }
        }
        throw new AssertionError(
                "in the 10 s before the load the querier's counts never matched the single" + " Prometheus'");
    }

    private static boolean sameCounts(PromApi single, PromApi thanosQuery, String job, Instant at) {
        return new AnswerComparison(0, 0, Set.of("replica"))
                .compare(single.query(counts(job), at, true), thanosQuery.query(counts(job), at, true))
                .differences()
                .isEmpty();
    }

    /**
     * The alerts of thanos rule, from its rules API: its {@code /api/v1/alerts} answers {@code "Alerts": null}
     * (Go's field name, unlike Prometheus' {@code "alerts"}) whatever fires.
     */
    public static JsonNode ruleAlerts(PromApi rule) {
        ArrayNode alerts = JsonNodeFactory.instance.arrayNode();
        for (JsonNode group : rule.ruleGroups()) {
            for (JsonNode r : group.path("rules")) {
                r.path("alerts").forEach(alerts::add);
            }
        }
        return alerts;
    }

    /** The firing alerts named {@code alertName} among {@code alerts}. */
    public static List<JsonNode> firing(JsonNode alerts, String alertName) {
        List<JsonNode> firing = new ArrayList<>();
        for (JsonNode alert : alerts) {
            if (alertName.equals(alert.path("labels").path("alertname").asText())
                    && "firing".equals(alert.path("state").asText())) {
                firing.add(alert);
            }
        }
        return firing;
    }

    /** The rules of {@code groups} (a rules API answer) not evaluated healthily, with their last error. */
    public static List<String> unhealthy(JsonNode groups) {
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

    /** How many rules {@code groups} (a rules API answer) holds. */
    public static int ruleCount(JsonNode groups) {
        int rules = 0;
        for (JsonNode group : groups) {
            rules += group.path("rules").size();
        }
        return rules;
    }

    /** The condition, false while the querier still refuses (no StoreAPI found yet: it polls its endpoints). */
    public static boolean answers(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (AssertionError notYet) {
            return false;
        }
    }
}
