package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.blockscope.testsupport.Command;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboards against Grafana's published dashboard types (@grafana/schema, pinned in
 * schema/package-lock.json): schema/validate.mjs type-checks each dashboard and panel with the
 * TypeScript compiler. Needs node and `dashboards/setup.sh` (npm ci); fails saying so when missing.
 */
class GrafanaSchemaTest {

    @Test
    void dashboardsMatchGrafanasPublishedSchema() throws Exception {
        Command.Result run = validate(ModulePaths.serverDashboard(), ModulePaths.fleetDashboard());
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("2 dashboard(s) valid against @grafana/schema 12.4.11"), run.output());
    }

    @Test
    void schemaViolationsAreReportedPerPanel(@TempDir Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode dashboard =
                (ObjectNode) json.readTree(ModulePaths.serverDashboard().toFile());
        ObjectNode hotSites = (ObjectNode) findPanel(dashboard, 33);
        ((ObjectNode) hotSites.path("options")).put("cellHeight", "huge");
        ObjectNode gcPauses = (ObjectNode) findPanel(dashboard, 11);
        ((ObjectNode) gcPauses.path("fieldConfig").path("defaults")).put("units", "s");
        dashboard.put("graphTooltip", "shared");
        Path broken = dir.resolve("broken.json");
        json.writeValue(broken.toFile(), dashboard);

        Command.Result run = validate(broken);

        assertEquals(1, run.exitCode(), run.output());
        assertTrue(
                run.output().contains("panel 33 (Hottest copy sites): Type '\"huge\"' is not assignable"),
                run.output());
        assertTrue(
                run.output()
                        .contains(
                                "panel 11 (GC pause p50 / p99): Object literal may only specify known properties, and '\"units\"'"),
                run.output());
        assertTrue(
                run.output().contains("dashboard: Type 'string' is not assignable to type 'DashboardCursorSync"),
                run.output());
        assertTrue(run.output().contains("3 problem(s)"), run.output());
    }

    private static com.fasterxml.jackson.databind.JsonNode findPanel(ObjectNode dashboard, int id) {
        for (com.fasterxml.jackson.databind.JsonNode panel : dashboard.path("panels")) {
            if (panel.path("id").asInt() == id) {
                return panel;
            }
        }
        throw new IllegalArgumentException("no panel " + id);
    }

    private static Command.Result validate(Path... dashboards) {
        Path schema = ModulePaths.dashboards().resolve("schema");
        if (!Files.isDirectory(schema.resolve("node_modules/@grafana/schema"))
                || !Files.isDirectory(schema.resolve("node_modules/typescript"))) {
            throw new IllegalStateException("the pinned Grafana schema is not installed in " + schema
                    + "/node_modules: run dashboards/setup.sh (npm ci) first");
        }
        List<String> command =
                new ArrayList<>(List.of(node(), schema.resolve("validate.mjs").toString()));
        for (Path d : dashboards) {
            command.add(d.toString());
        }
        return Command.run(command, null, Duration.ofSeconds(120));
    }

    private static String node() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "node"))) {
                return Path.of(dir, "node").toString();
            }
        }
        throw new IllegalStateException(
                "node not found on PATH: run dashboards/setup.sh as root (installs Debian's nodejs)");
    }
}
