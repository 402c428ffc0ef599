package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every PromQL expression in the dashboard JSON parses. promtool has no "parse this query" command, but
 * {@code promtool check rules} parses each rule's expression offline: so every query becomes a
 * recording rule of a generated file (Grafana variables replaced by representative values).
 */
class DashboardQueriesParseTest {

    /** Values that make the dashboards' Grafana variables plain PromQL (the shapes Grafana produces). */
    static final Map<String, String> VARIABLES = Map.of(
            "job", "blockscope",
            "instance", "127.0.0.1:9404",
            "__rate_interval", "1m",
            "__range", "1h",
            "__interval", "15s");

    @Test
    void everyDashboardExpressionParses(@TempDir Path dir) throws IOException {
        List<GrafanaDashboard.Query> queries = new ArrayList<>();
        GrafanaDashboard.all().forEach(d -> queries.addAll(d.queries()));
        assertFalse(queries.isEmpty());

        Command.Result result = checkAsRules(
                dir,
                queries.stream()
                        .map(q -> PromQl.resolveGrafanaVariables(q.expr(), VARIABLES))
                        .toList());

        assertTrue(result.ok(), "promtool rejects a dashboard query:\n" + describe(queries) + "\n" + result.output());
        assertTrue(result.output().contains("SUCCESS: " + queries.size() + " rules found"), result.output());
    }

    @Test
    void aBrokenExpressionIsRejected(@TempDir Path dir) throws IOException {
        Command.Result result = checkAsRules(
                dir,
                List.of(
                        "sum by (tier) (rate(blockscope_block_cache_gets_total[1m]))",
                        "sum by (tier) (rate(blockscope_block_cache_gets_total[1m])"));

        assertFalse(result.ok(), result.output());
        assertTrue(result.output().contains("dashboard_query_1"), result.output());
    }

    /** Writes the expressions as recording rules dashboard_query_N and runs promtool check rules. */
    static Command.Result checkAsRules(Path dir, List<String> expressions) throws IOException {
        ObjectNode root = RuleFile.YAML.createObjectNode();
        ObjectNode group = root.putArray("groups").addObject();
        group.put("name", "dashboard-queries");
        ArrayNode rules = group.putArray("rules");
        for (int i = 0; i < expressions.size(); i++) {
            rules.addObject().put("record", "dashboard_query_" + i).put("expr", expressions.get(i));
        }
        Path file = dir.resolve("dashboard-queries.yml");
        RuleFile.YAML.writeValue(file.toFile(), root);
        return Promtool.run(dir, "check", "rules", file.getFileName().toString());
    }

    private static String describe(List<GrafanaDashboard.Query> queries) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < queries.size(); i++) {
            out.append("dashboard_query_")
                    .append(i)
                    .append(" = ")
                    .append(queries.get(i).where())
                    .append('\n');
        }
        return out.toString();
    }
}
