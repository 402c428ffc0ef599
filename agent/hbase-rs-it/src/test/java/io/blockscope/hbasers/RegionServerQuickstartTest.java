package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.dashboards.GrafanaDashboard;
import io.blockscope.dashboards.PromQl;
import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.Command;
import io.blockscope.testsupport.FreePort;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/quickstart-hbase.md, followed as written: every fenced block of the page is run (commands with
 * bash, from the repository's root) or written where the page says (hbase-env.sh, prometheus.yml), with
 * only the page's placeholders replaced (its table of names: folders, hosts, ports). The RegionServer
 * is a real standalone HBase 2.6 started with exactly the JVM options the page's hbase-env.sh lines
 * give (no module flag of the test's own), and a real Prometheus scrapes it under the page's job
 * {@value #JOB}, at the page's 15 s interval. The rules the page renders and loads must see the
 * server (the hot-copy alert's expression returns it under copying load), and every panel of the
 * dashboards it installs must show it, through the dashboards' own variable queries. One RegionServer
 * start; about two minutes, most of it waiting for 15 s scrapes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerQuickstartTest {

    static final String JOB = "hbase-regionserver";
    static final String CLUSTER = "prod1";
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(15);

    /** The page's blocks, in order: what each one is, as this test runs it. */
    private static final List<String> BLOCKS = List.of(
            "bash: install the jar",
            "sh: hbase-env.sh, the agent",
            "sh: hbase-env.sh, the module flags",
            "bash: check the agent",
            "text: what the check prints",
            "yaml: the scrape job",
            "bash: reload, check the scrape",
            "bash: render",
            "bash: install the rules",
            "yaml: rule_files",
            "bash: check and reload",
            "bash: query a recording rule",
            "bash: install the dashboards");

    private static final int INSTALL_JAR = 0;
    private static final int AGENT_OPTS = 1;
    private static final int MODULE_FLAGS = 2;
    private static final int CHECK_AGENT = 3;
    private static final int CHECK_AGENT_PRINTS = 4;
    private static final int SCRAPE_JOB = 5;
    private static final int RELOAD_AND_CHECK_SCRAPE = 6;
    private static final int RENDER = 7;
    private static final int INSTALL_RULES = 8;
    private static final int RULE_FILES = 9;
    private static final int CHECK_AND_RELOAD = 10;
    private static final int QUERY_RECORDING_RULE = 11;
    private static final int INSTALL_DASHBOARDS = 12;

    /** The page's placeholder for the folder Grafana's file provider reads. */
    private static final String GRAFANA_DASHBOARDS = "/var/lib/grafana/dashboards/blockscope";

    private static final Pattern ALERT_ROW =
            Pattern.compile("(?m)^\\| \\[(\\w+)\\]\\(runbooks\\.md#([a-z0-9-]+)\\) \\| (\\w+) \\|");

    @TempDir
    static Path dir;

    private Path repo;
    private MarkdownPage page;
    private final Map<String, String> placeholders = new LinkedHashMap<>();
    private Path prometheusYml;
    private PrometheusServer prometheus;
    private RegionServerProcess server;
    private Workload workload;
    private int agentPort;
    private String target;
    private Instant scrapedSince;

    @BeforeAll
    void followStepOne() throws Exception {
        repo = Path.of(RegionServerProcess.required("blockscope.dashboards"))
                .getParent()
                .toRealPath();
        page = MarkdownPage.read(repo.resolve("docs/quickstart-hbase.md"));
        List<String> languages =
                page.blocks().stream().map(MarkdownPage.Block::language).collect(Collectors.toList());
        assertEquals(
                BLOCKS.stream().map(b -> b.substring(0, b.indexOf(':'))).collect(Collectors.toList()),
                languages,
                page.file() + " has other blocks than the ones this test runs (" + BLOCKS
                        + "): a block nobody runs is a command nobody checked; run it here");

        // An operator's Prometheus before the page: its own global section, no blockscope job yet.
        Path etcPrometheus = Files.createDirectories(dir.resolve("etc-prometheus"));
        prometheusYml = etcPrometheus.resolve("prometheus.yml");
        Files.writeString(prometheusYml, "global:\n  evaluation_interval: 5s\n");
        prometheus = PrometheusSetup.in(dir.resolve("prometheus"))
                .configFile(prometheusYml)
                .flag("--web.enable-lifecycle") // POST /-/reload rereads the file, as the page says
                .start();

        agentPort = FreePort.pick();
        target = "127.0.0.1:" + agentPort;
        placeholders.put("agent/target/blockscope-agent.jar", AgentJar.locate().toString());
        placeholders.put("/opt/blockscope", dir.resolve("opt-blockscope").toString());
        placeholders.put("/etc/hbase/conf", dir.resolve("hbase-conf").toString());
        placeholders.put("rs1.example.com", "127.0.0.1");
        placeholders.put("9404", Integer.toString(agentPort));
        placeholders.put("/etc/prometheus", etcPrometheus.toString());
        placeholders.put("localhost:9090", prometheus.address());
        placeholders.put("/tmp/blockscope-rendered", dir.resolve("rendered").toString());
        placeholders.put(GRAFANA_DASHBOARDS, dir.resolve("grafana-dashboards").toString());
        placeholders.put(
                "/etc/grafana/provisioning", dir.resolve("grafana-provisioning").toString());
        for (String name : placeholders.keySet()) {
            assertTrue(
                    page.text().contains("| `" + name + "` |"),
                    "the page's table of names to replace lists `" + name + "`, which this test replaces");
        }

        assertEquals(0, run(INSTALL_JAR).exit, "installing the jar");
        Path jar = dir.resolve("opt-blockscope/blockscope-agent.jar");
        assertArrayEquals(Files.readAllBytes(AgentJar.locate()), Files.readAllBytes(jar), "the installed jar");

        // The two hbase-env.sh blocks go into hbase-env.sh; bin/hbase sources it and passes
        // $HBASE_REGIONSERVER_OPTS to the RegionServer's JVM word by word, as here.
        Path hbaseEnv = Files.createDirectories(dir.resolve("hbase-conf")).resolve("hbase-env.sh");
        Files.writeString(hbaseEnv, block(AGENT_OPTS) + block(MODULE_FLAGS));
        Output opts = bash(". \"$1\"; printf '%s\\n' $HBASE_REGIONSERVER_OPTS", hbaseEnv.toString());
        assertEquals(0, opts.exit, "sourcing hbase-env.sh: " + opts.text);
        List<String> jvmOptions = opts.lines();
        assertTrue(
                jvmOptions.contains("-javaagent:" + jar + "=" + agentPort),
                "the agent in HBASE_REGIONSERVER_OPTS: " + jvmOptions);
        server = RegionServerProcess.builder()
                .withoutModuleFlags()
                .jvmOptions(jvmOptions)
                .start();
        System.out.printf(
                "[quickstart] RegionServer started with the page's options in %d ms: %s%n",
                server.startup().toMillis(), jvmOptions);
        workload = Workload.create(server, "quickstart");
    }

    @AfterAll
    void stop() throws Exception {
        Closer.closeAll(workload, server, prometheus);
    }

    @Test
    @Order(1)
    void stepOneTheAgentRunsInTheRegionServerAndPrintsWhatThePageShows() {
        assertEquals(agentPort, server.metricsUri().getPort(), "the agent's endpoint: " + server.agentLines());
        Output check = run(CHECK_AGENT);
        assertEquals(0, check.exit, "the check: " + check.text);
        assertEquals(
                new TreeSet<>(List.of(block(CHECK_AGENT_PRINTS).split("\n"))),
                new TreeSet<>(check.lines()),
                "what the page says the check prints, against what it printed");
    }

    @Test
    @Order(2)
    void stepTwoPrometheusScrapesTheRegionServerUnderThePagesJob() throws IOException {
        Files.writeString(prometheusYml, Files.readString(prometheusYml) + block(SCRAPE_JOB));
        Output up = await(RELOAD_AND_CHECK_SCRAPE, o -> o.text.contains("=> 1"), Duration.ofSeconds(60));
        scrapedSince = Instant.now().minus(SCRAPE_INTERVAL);
        assertAll(
                () -> assertTrue(up.text.contains("job=\"" + JOB + "\""), up.text),
                () -> assertTrue(up.text.contains("cluster=\"" + CLUSTER + "\""), up.text),
                () -> assertTrue(up.text.contains("instance=\"" + target + "\""), up.text));
    }

    @Test
    @Order(3)
    void stepThreeTheRenderSelectsThePagesJobWhereTheShippedFilesSelectNothing() {
        Output render = run(RENDER);
        assertEquals(0, render.exit, "the render: " + render.text);
        Path rendered = dir.resolve("rendered");
        for (String file : List.of(
                "alerts.yml", "recording-rules.yml", "grafana/offheap-read-path.json", "grafana/fleet-overview.json")) {
            assertTrue(Files.isRegularFile(rendered.resolve(file)), "rendered " + file);
        }
        // The $job menu of the shipped dashboards is empty on this Prometheus; the rendered one lists the job.
        assertEquals(Set.of(), jobsListed(repo.resolve("dashboards/grafana")), "jobs the shipped dashboards list");
        assertEquals(Set.of(JOB), jobsListed(rendered.resolve("grafana")), "jobs the rendered dashboards list");
    }

    @Test
    @Order(4)
    void stepFourTheRulesLoadAndTheHotCopyAlertSeesTheRegionServer() throws Exception {
        assertEquals(0, run(INSTALL_RULES).exit, "installing the rules");
        Files.writeString(prometheusYml, Files.readString(prometheusYml) + block(RULE_FILES));
        Output check = run(CHECK_AND_RELOAD);
        assertEquals(0, check.exit, "check and reload: " + check.text);
        assertTrue(check.text.contains("SUCCESS"), check.text);

        Set<String> renderedAlerts = alertNames(dir.resolve("rendered/alerts.yml"));
        Instant deadline = Instant.now().plusSeconds(30);
        Map<String, String> health = ruleHealth();
        while (health.containsValue("unknown") && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(1000);
            health = ruleHealth();
        }
        Map<String, String> finalHealth = health;
        assertAll(
                () -> assertTrue(
                        finalHealth.keySet().containsAll(renderedAlerts),
                        "alerts loaded " + finalHealth.keySet() + ", rendered " + renderedAlerts),
                () -> assertEquals(
                        Map.of(),
                        finalHealth.entrySet().stream()
                                .filter(e -> !e.getValue().equals("ok"))
                                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                        "rules not evaluated without error"));

        Output recorded = await(
                QUERY_RECORDING_RULE, o -> o.text.contains("instance=\"" + target + "\""), Duration.ofSeconds(60));
        assertTrue(
                recorded.text.contains("cluster=\"" + CLUSTER + "\"") && recorded.text.contains("job=\"" + JOB + "\""),
                recorded.text);

        // Reads for the dashboards, then copies enough for the hot-copy alert's 4 MiB/s.
        assertEquals(200, workload.gets(200), "rows found by 200 gets");
        assertEquals(Workload.ROWS, workload.scan(), "rows of a full scan");
        String expression = prometheus.alertExpression("BlockscopeHotCopyPath");
        JsonNode hot = prometheus.query(expression);
        Instant loadDeadline = Instant.now().plusSeconds(150);
        while (hot.size() == 0 && Instant.now().isBefore(loadDeadline)) {
            assertEquals(0, workload.copyingLoadScan(), "the load scan sends nothing back");
            hot = prometheus.query(expression);
        }
        assertEquals(1, hot.size(), "the rendered hot-copy expression on a copying RegionServer: " + hot);
        JsonNode labels = hot.get(0).path("metric");
        assertAll(
                () -> assertEquals(target, labels.path("instance").asText(), labels.toString()),
                () -> assertEquals(JOB, labels.path("job").asText(), labels.toString()),
                () -> assertEquals(CLUSTER, labels.path("cluster").asText(), labels.toString()));
        // As the page says: the dashboards' rates need two samples of what just happened.
        RegionServerProcess.sleep(SCRAPE_INTERVAL.multipliedBy(2).toMillis());
    }

    @Test
    @Order(5)
    void stepFourTheInstalledDashboardsShowTheRegionServerInEveryPanel() throws Exception {
        assertEquals(0, run(INSTALL_DASHBOARDS).exit, "installing the dashboards");
        Path installed = dir.resolve("grafana-dashboards");
        for (String name : List.of("offheap-read-path.json", "fleet-overview.json")) {
            assertEquals(
                    Files.readString(dir.resolve("rendered/grafana").resolve(name)),
                    Files.readString(installed.resolve(name)),
                    "installed " + name);
        }
        String provider = Files.readString(dir.resolve("grafana-provisioning/dashboards/blockscope.yaml"));
        assertTrue(
                provider.contains("path: " + GRAFANA_DASHBOARDS),
                "the provider reads the folder the page installs the dashboards into:\n" + provider);

        // The dashboards' menus, as Grafana fills them from their variable queries.
        Map<String, String> menus = menus(installed);
        assertEquals(Map.of("cluster", CLUSTER, "job", JOB, "instance", target), menus, "the dashboards' menus");

        List<DashboardPanels.Result> results =
                DashboardPanels.run(prometheus, installed, menus, scrapedSince, Instant.now(), SCRAPE_INTERVAL);
        Set<String> emptyOnAHealthyServer = panelsThePageSaysStayEmpty();
        Map<String, Boolean> panels = new TreeMap<>();
        for (DashboardPanels.Result r : results) {
            if (r.query().panelId() == 0 || r.exampleServerOnly()) {
                continue; // a menu's query (checked above), or a panel marked example-server only
            }
            panels.merge(r.query().dashboard() + ": " + r.query().panelTitle(), r.data(), Boolean::logicalOr);
        }
        List<String> empty = panels.entrySet().stream()
                .filter(e -> !e.getValue())
                .map(Map.Entry::getKey)
                .filter(p -> !emptyOnAHealthyServer.contains(p.substring(p.indexOf(": ") + 2)))
                .collect(Collectors.toList());
        assertTrue(panels.size() > 30, "panels: " + panels.keySet());
        String queries = results.stream()
                .filter(r ->
                        empty.contains(r.query().dashboard() + ": " + r.query().panelTitle()))
                .map(DashboardPanels.Result::describe)
                .collect(Collectors.joining("\n"));
        assertEquals(
                List.of(),
                empty,
                "panels without data for the page's job; the page says only " + emptyOnAHealthyServer
                        + " stay empty. Their queries:\n" + queries);
        System.out.printf(
                "[quickstart] %d panels show the RegionServer%n",
                panels.values().stream().filter(b -> b).count());
    }

    @Test
    @Order(6)
    void stepFiveTheAlertTableListsEveryRenderedAlertWithItsSeverityAndRunbook() throws IOException {
        Map<String, String> severities = new TreeMap<>();
        for (JsonNode group : prometheus.ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.path("type").asText().equals("alerting")) {
                    severities.put(
                            rule.path("name").asText(),
                            rule.path("labels").path("severity").asText());
                }
            }
        }
        Map<String, String> table = new TreeMap<>();
        Matcher row = ALERT_ROW.matcher(page.text());
        String runbooks = Files.readString(repo.resolve("docs/runbooks.md"));
        while (row.find()) {
            String alert = row.group(1);
            table.put(alert, row.group(3));
            assertEquals(alert.toLowerCase(Locale.ROOT), row.group(2), "the runbook anchor of " + alert);
            assertTrue(runbooks.contains("\n## " + alert + "\n"), "docs/runbooks.md has a section " + alert);
        }
        assertEquals(severities, table, "the page's alert table (alert, severity) against the loaded rules");
    }

    /** The job values the dashboards' $job menu lists on this Prometheus. */
    private Set<String> jobsListed(Path grafana) {
        Set<String> jobs = new TreeSet<>();
        for (GrafanaDashboard dashboard : GrafanaDashboard.all(grafana)) {
            for (GrafanaDashboard.Query query : dashboard.queries()) {
                if (query.panelTitle().equals("variable $job")) {
                    String selector = PromQl.resolveGrafanaVariables(query.expr(), Map.of("cluster", CLUSTER));
                    prometheus
                            .query(selector)
                            .forEach(s -> jobs.add(s.path("metric").path("job").asText()));
                }
            }
        }
        return jobs;
    }

    /**
     * Each menu (query variable) of the dashboards, filled in order as Grafana does: the values its
     * label_values selector finds, with the menus before it set. Each must offer exactly one value here.
     */
    private Map<String, String> menus(Path grafana) {
        Map<String, String> chosen = new LinkedHashMap<>();
        for (GrafanaDashboard dashboard : GrafanaDashboard.all(grafana)) {
            for (GrafanaDashboard.Query query : dashboard.queries()) {
                if (!query.refId().equals("variable")) {
                    continue;
                }
                String name = query.panelTitle().substring("variable $".length());
                String selector = PromQl.resolveGrafanaVariables(query.expr(), chosen);
                Set<String> values = new TreeSet<>();
                prometheus
                        .query(selector)
                        .forEach(s -> values.add(s.path("metric").path(name).asText()));
                assertEquals(1, values.size(), dashboard + " menu $" + name + " (" + selector + "): " + values);
                String value = values.iterator().next();
                String before = chosen.putIfAbsent(name, value);
                assertTrue(before == null || before.equals(value), "menu $" + name + ": " + before + " and " + value);
            }
        }
        return chosen;
    }

    /** The panels step 4 says stay empty on a healthy RegionServer: the *Title* items of that sentence. */
    private Set<String> panelsThePageSaysStayEmpty() {
        String text = page.text().replace('\n', ' ');
        int end = text.indexOf("stay empty");
        assertTrue(end > 0, "step 4 says which panels stay empty on a healthy RegionServer");
        String sentence = text.substring(text.lastIndexOf(". ", end), end);
        assertTrue(sentence.contains("healthy RegionServer"), "the sentence on empty panels: " + sentence);
        Set<String> titles = new TreeSet<>();
        Matcher m = Pattern.compile("\\*([^*]+)\\*").matcher(sentence);
        while (m.find()) {
            titles.add(m.group(1));
        }
        return titles;
    }

    private Map<String, String> ruleHealth() {
        Map<String, String> health = new TreeMap<>();
        for (JsonNode group : prometheus.ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                health.merge(
                        rule.path("name").asText(), rule.path("health").asText(), (a, b) -> a.equals("ok") ? b : a);
            }
        }
        return health;
    }

    private static Set<String> alertNames(Path alertsYml) throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*- alert: \"?(\\w+)\"?$").matcher(Files.readString(alertsYml));
        while (m.find()) {
            names.add(m.group(1));
        }
        assertTrue(names.size() > 5, alertsYml + " alerts: " + names);
        return names;
    }

    private String block(int index) {
        return MarkdownPage.substitute(page.blocks().get(index).text(), placeholders);
    }

    /** Runs a bash block of the page until its output satisfies {@code done}, at most {@code within}. */
    private Output await(int index, Predicate<Output> done, Duration within) {
        Instant deadline = Instant.now().plus(within);
        Output output = run(index);
        while (!(output.exit == 0 && done.test(output)) && Instant.now().isBefore(deadline)) {
            RegionServerProcess.sleep(3000);
            output = run(index);
        }
        assertEquals(0, output.exit, page.blocks().get(index).describe() + "\nfailed:\n" + output.text);
        assertTrue(
                done.test(output),
                page.blocks().get(index).describe() + "\nprinted, after " + within + ":\n" + output.text);
        return output;
    }

    private Output run(int index) {
        return bash(block(index));
    }

    /** {@code script} under bash -e -o pipefail, from the repository's root. */
    private Output bash(String script, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", "-e", "-o", "pipefail", "-c", script, "bash"));
        command.addAll(List.of(args));
        Command.Result result = Command.run(command, repo, Duration.ofSeconds(120));
        return new Output(result.exitCode(), result.output());
    }

    private record Output(int exit, String text) {
        List<String> lines() {
            return text.lines().filter(l -> !l.isBlank()).collect(Collectors.toList());
        }
    }
}
