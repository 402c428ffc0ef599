package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The provisioning files, the example prometheus.yml and docker-compose.yml agree with each other and
 * with what the tests run; each example scrape config passes the promtool of the Prometheus it is for.
 * docker-compose cannot run on the build machines; this is what can be checked.
 */
class ProvisioningTest {

    private final Path dir = ModulePaths.dashboards();

    @ParameterizedTest(name = "{0}")
    @EnumSource(PrometheusVersion.class)
    void examplePrometheusConfigIsValidAndLoadsBothRuleFiles(PrometheusVersion version) {
        // prometheus.yml is for 2.x and loads unchanged into 3.x (which then stores classic histograms).
        Command.Result result = Promtool.run(version, dir, "check", "config", "prometheus.yml");
        assertTrue(result.ok(), result.output());
        assertTrue(result.output().contains("SUCCESS: 2 rule files found"), result.output());
    }

    @Test
    void prometheus3ConfigIsValidForPrometheus3() {
        Command.Result result = Promtool.run(PrometheusVersion.V3, dir, "check", "config", "prometheus-3.yml");
        assertTrue(result.ok(), result.output());
        assertTrue(result.output().contains("SUCCESS: 2 rule files found"), result.output());
    }

    @Test
    void prometheus3ConfigIsTheSameWithNativeHistogramScraping() throws IOException {
        // Prometheus 3.9+ scrapes native histograms only with this field (2.x does not know it).
        JsonNode expected = yaml("prometheus.yml").deepCopy();
        for (JsonNode scrape : expected.path("scrape_configs")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) scrape).put("scrape_native_histograms", true);
        }
        assertEquals(expected, yaml("prometheus-3.yml"));
    }

    @Test
    void datasourceIsThePrometheusOfTheComposeFileWithItsScrapeInterval() throws IOException {
        JsonNode datasources = yaml("provisioning/datasources/prometheus.yaml").path("datasources");
        assertEquals(1, datasources.size());
        JsonNode ds = datasources.path(0);
        assertEquals("prometheus", ds.path("type").asText());
        assertEquals("http://prometheus:9090", ds.path("url").asText());
        // Grafana's $__rate_interval is derived from this: it must be the real scrape interval.
        assertEquals(
                yaml("prometheus.yml").path("global").path("scrape_interval").asText(),
                ds.path("jsonData").path("timeInterval").asText());
    }

    @Test
    void dashboardProviderReadsTheFolderComposeMountsTheDashboardsInto() throws IOException {
        JsonNode provider = yaml("provisioning/dashboards/blockscope.yaml")
                .path("providers")
                .path(0);
        assertEquals("file", provider.path("type").asText());
        String path = provider.path("options").path("path").asText();
        List<String> grafanaVolumes =
                strings(compose().path("services").path("grafana").path("volumes"));
        assertTrue(grafanaVolumes.contains("./grafana:" + path + ":ro"), grafanaVolumes.toString());
        assertTrue(grafanaVolumes.contains("./provisioning:/etc/grafana/provisioning:ro"), grafanaVolumes.toString());
        try (var files = Files.list(dir.resolve("grafana"))) {
            assertEquals(
                    2,
                    files.filter(f -> f.toString().endsWith(".json")).count(),
                    "the provider loads every JSON in grafana/");
        }
    }

    @Test
    void composeRunsWhatTheTestsRun() throws IOException {
        JsonNode services = compose().path("services");
        List<String> problems = new ArrayList<>();

        List<String> prometheus = strings(services.path("prometheus").path("command"));
        check(
                problems,
                prometheus.contains("--enable-feature=native-histograms"),
                "compose Prometheus must enable native histograms");
        List<String> volumes = strings(services.path("prometheus").path("volumes"));
        for (String file : List.of("prometheus.yml", "recording-rules.yml", "alerts.yml")) {
            check(
                    problems,
                    volumes.contains("./" + file + ":/etc/prometheus/" + file + ":ro"),
                    "compose Prometheus must mount " + file);
        }

        List<String> server = strings(services.path("example-server").path("command"));
        String javaagent = server.stream()
                .filter(a -> a.startsWith("-javaagent:"))
                .findFirst()
                .orElse("");
        String target = yaml("prometheus.yml")
                .path("scrape_configs")
                .path(0)
                .path("static_configs")
                .path(0)
                .path("targets")
                .path(0)
                .asText();
        check(
                problems,
                javaagent.endsWith(":" + target.substring(target.indexOf(':') + 1)),
                "the agent's port " + javaagent + " must be the scrape target's " + target);
        check(
                problems,
                target.startsWith("example-server:"),
                "the scrape target must be the compose service example-server");
        check(
                problems,
                server.contains("--read-path=zero-copy"),
                "the compose server should show the zero-copy path the alerts watch");

        String grafanaImage = services.path("grafana").path("image").asText();
        String schemaVersion = RuleFile.YAML
                .readTree(dir.resolve("schema/package.json").toFile())
                .path("dependencies")
                .path("@grafana/schema")
                .asText();
        check(
                problems,
                grafanaImage.endsWith(":" + schemaVersion),
                "Grafana image " + grafanaImage + " must match the validated schema " + schemaVersion);
        assertEquals(List.of(), problems);
    }

    private JsonNode compose() throws IOException {
        return yaml("docker-compose.yml");
    }

    private JsonNode yaml(String file) throws IOException {
        return RuleFile.YAML.readTree(dir.resolve(file).toFile());
    }

    private static List<String> strings(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(n -> list.add(n.asText()));
        return list;
    }

    private static void check(List<String> problems, boolean ok, String problem) {
        if (!ok) {
            problems.add(problem);
        }
    }
}
