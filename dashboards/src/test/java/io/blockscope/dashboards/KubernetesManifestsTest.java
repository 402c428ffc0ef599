package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * dashboards/k8s: what can be checked without a cluster. Every file parses as YAML; the PrometheusRule's
 * groups are exactly the rendered rule files' groups and pass promtool; the dashboard ConfigMaps carry
 * the rendered dashboards with the sidecar's label; the monitors give the targets a job the rules select;
 * the RegionServer patch adds the agent through an init container with read-only root file systems.
 * (That the files are the mixin's render is MixinRenderTest's check.)
 */
class KubernetesManifestsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path k8s = ModulePaths.dashboards().resolve("k8s");

    @ParameterizedTest(name = "{0}")
    @EnumSource(PrometheusVersion.class)
    void prometheusRuleCarriesTheRenderedGroupsAndPassesPromtool(PrometheusVersion version, @TempDir Path dir)
            throws IOException {
        JsonNode rule = single("prometheusrule.yaml");
        assertEquals("monitoring.coreos.com/v1", rule.path("apiVersion").asText());
        assertEquals("PrometheusRule", rule.path("kind").asText());
        JsonNode groups = rule.path("spec").path("groups");

        ArrayNode expected = RuleFile.YAML.createArrayNode();
        for (Path file : List.of(ModulePaths.recordingRules(), ModulePaths.alerts())) {
            RuleFile.YAML.readTree(file.toFile()).path("groups").forEach(expected::add);
        }
        assertEquals(expected, groups, "the PrometheusRule's groups are not the rendered rule files' groups");

        ObjectNode ruleFile = RuleFile.YAML.createObjectNode();
        ruleFile.set("groups", groups);
        RuleFile.YAML.writeValue(dir.resolve("groups.yml").toFile(), ruleFile);
        Command.Result result = Promtool.run(version, dir, "check", "rules", "groups.yml");
        assertTrue(result.ok(), result.output());
    }

    @Test
    void dashboardConfigMapsCarryTheRenderedDashboardsForTheSidecar() throws IOException {
        List<JsonNode> maps = documents("dashboards-configmap.yaml");
        List<String> names = new ArrayList<>();
        for (JsonNode map : maps) {
            assertEquals("ConfigMap", map.path("kind").asText());
            assertEquals(
                    "1",
                    map.path("metadata")
                            .path("labels")
                            .path("grafana_dashboard")
                            .asText());
            map.path("data").fields().forEachRemaining(e -> {
                names.add(e.getKey());
                try {
                    assertEquals(
                            JSON.readTree(ModulePaths.dashboards()
                                    .resolve("grafana")
                                    .resolve(e.getKey())
                                    .toFile()),
                            JSON.readTree(e.getValue().asText()),
                            e.getKey());
                } catch (IOException x) {
                    throw new AssertionError(e.getKey() + " is not JSON", x);
                }
            });
        }
        assertEquals(
                List.of("fleet-overview.json", "offheap-read-path.json"),
                names.stream().sorted().toList());
    }

    @Test
    void monitorsGiveTheTargetsAJobTheRulesSelect() throws IOException {
        // The default _config.job is the regular expression blockscope.*: the relabelled job must match it.
        Pattern job = Pattern.compile("blockscope.*");
        JsonNode pod = single("podmonitor.yaml");
        assertEquals("PodMonitor", pod.path("kind").asText());
        List<JsonNode> endpoints = new ArrayList<>();
        pod.path("spec").path("podMetricsEndpoints").forEach(endpoints::add);
        JsonNode service = documents("servicemonitor.yaml").stream()
                .filter(d -> d.path("kind").asText().equals("ServiceMonitor"))
                .findFirst()
                .orElseThrow();
        service.path("spec").path("endpoints").forEach(endpoints::add);
        assertEquals(2, endpoints.size());
        for (JsonNode endpoint : endpoints) {
            assertEquals("blockscope", endpoint.path("port").asText());
            JsonNode relabel = endpoint.path("relabelings").path(0);
            assertEquals("job", relabel.path("targetLabel").asText());
            assertTrue(job.matcher(relabel.path("replacement").asText()).matches(), relabel.toString());
        }
        assertEquals(
                pod.path("spec").path("selector"), service.path("spec").path("selector"), "both select the same pods");
    }

    @Test
    void regionServerPatchAddsTheAgentThroughAnInitContainer() throws IOException {
        JsonNode spec = single("regionserver-agent-patch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode init = spec.path("initContainers").path(0);
        JsonNode server = spec.path("containers").path(0);
        assertEquals(
                "blockscope-agent",
                init.path("volumeMounts").path(0).path("name").asText());
        assertTrue(init.path("securityContext").path("readOnlyRootFilesystem").asBoolean());
        assertTrue(server.path("securityContext").path("readOnlyRootFilesystem").asBoolean());
        String copiedTo = init.path("command").path(2).asText();
        String mountedAt = server.path("volumeMounts").path(0).path("mountPath").asText();
        String options = server.path("env").path(0).path("value").asText();
        assertEquals(
                "JAVA_TOOL_OPTIONS", server.path("env").path(0).path("name").asText());
        assertTrue(
                options.startsWith(
                        "-javaagent:" + mountedAt + "/" + Path.of(copiedTo).getFileName()),
                "the JVM must load the jar the init container copies: " + options);
        assertTrue(
                copiedTo.startsWith(
                        init.path("volumeMounts").path(0).path("mountPath").asText() + "/"),
                copiedTo);
        boolean tmpWritable = false;
        for (JsonNode mount : server.path("volumeMounts")) {
            tmpWritable |= mount.path("mountPath").asText().equals("/tmp")
                    && !mount.path("readOnly").asBoolean();
        }
        assertTrue(
                tmpWritable,
                "the agent (bootstrap jar) and JFR need a writable java.io.tmpdir with a read-only root file system");
        assertTrue(
                options.endsWith(
                        ":" + server.path("ports").path(0).path("containerPort").asInt()),
                options);
    }

    private JsonNode single(String file) throws IOException {
        List<JsonNode> docs = documents(file);
        assertEquals(1, docs.size(), file);
        return docs.get(0);
    }

    private List<JsonNode> documents(String file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                RuleFile.YAML.readerFor(JsonNode.class).readValues(Files.readString(k8s.resolve(file)))) {
            while (it.hasNext()) {
                docs.add(it.next());
            }
        }
        assertTrue(!docs.isEmpty(), file + " has no YAML documents");
        return docs;
    }
}
