package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Grafana dashboard JSON file, read as a tree, with the queries it runs pulled out. Public for
 * agent/hbase-rs-it, which runs the queries against a real RegionServer's scrape.
 */
public final class GrafanaDashboard {

    /**
     * One PromQL expression the dashboard runs: a panel target, an annotation or a variable's
     * {@code label_values} selector. {@code instant} is true for instant queries (tables, stats).
     */
    public record Query(String dashboard, int panelId, String panelTitle, String refId, String expr, boolean instant) {
        public String where() {
            return dashboard + " panel " + panelId + " (" + panelTitle + ") " + refId;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LABEL_VALUES =
            Pattern.compile("^\\s*label_values\\((.*),\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)\\s*$");

    private final String fileName;
    private final JsonNode root;

    private GrafanaDashboard(String fileName, JsonNode root) {
        this.fileName = fileName;
        this.root = root;
    }

    public static GrafanaDashboard read(Path file) {
        try {
            return new GrafanaDashboard(file.getFileName().toString(), JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dashboard " + file, e);
        }
    }

    static List<GrafanaDashboard> all() {
        return all(ModulePaths.dashboards().resolve("grafana"));
    }

    /** Both dashboards of a render's {@code grafana/} folder. */
    public static List<GrafanaDashboard> all(Path grafanaDir) {
        return List.of(
                read(grafanaDir.resolve("offheap-read-path.json")), read(grafanaDir.resolve("fleet-overview.json")));
    }

    public String fileName() {
        return fileName;
    }

    JsonNode root() {
        return root;
    }

    String uid() {
        return root.path("uid").asText();
    }

    /** All panels, rows included, with the panels nested in collapsed rows. */
    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : root.path("panels")) {
            panels.add(panel);
            for (JsonNode nested : panel.path("panels")) {
                panels.add(nested);
            }
        }
        return panels;
    }

    /** Panels that show data (everything but rows). */
    List<JsonNode> dataPanels() {
        return panels().stream()
                .filter(p -> !"row".equals(p.path("type").asText()))
                .toList();
    }

    public JsonNode panel(int id) {
        return panels().stream()
                .filter(p -> p.path("id").asInt() == id)
                .findFirst()
                .orElse(null);
    }

    List<JsonNode> variables() {
        List<JsonNode> variables = new ArrayList<>();
        root.path("templating").path("list").forEach(variables::add);
        return variables;
    }

    JsonNode variable(String name) {
        return variables().stream()
                .filter(v -> name.equals(v.path("name").asText()))
                .findFirst()
                .orElse(null);
    }

    /** Every PromQL expression in the dashboard: panel targets, annotations, variable selectors. */
    public List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : dataPanels()) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(
                        fileName,
                        panel.path("id").asInt(),
                        panel.path("title").asText(),
                        target.path("refId").asText(),
                        target.path("expr").asText(),
                        target.path("instant").asBoolean(false)));
            }
        }
        for (JsonNode annotation : root.path("annotations").path("list")) {
            String expr = annotation.has("expr")
                    ? annotation.path("expr").asText()
                    : annotation.path("target").path("expr").asText();
            if (!expr.isEmpty()) {
                queries.add(new Query(
                        fileName, 0, "annotation " + annotation.path("name").asText(), "annotation", expr, false));
            }
        }
        for (JsonNode variable : variables()) {
            if ("query".equals(variable.path("type").asText())) {
                queries.add(new Query(
                        fileName,
                        0,
                        "variable $" + variable.path("name").asText(),
                        "variable",
                        labelValuesSelector(variableQuery(variable)),
                        true));
            }
        }
        return queries;
    }

    /** The query text of a query variable, in either of the forms Grafana saves. */
    static String variableQuery(JsonNode variable) {
        JsonNode query = variable.path("query");
        return query.isTextual() ? query.asText() : query.path("query").asText();
    }

    /**
     * The series selector inside {@code label_values(selector, label)}.
     *
     * @throws IllegalArgumentException when the query is not of that form
     */
    static String labelValuesSelector(String query) {
        Matcher m = LABEL_VALUES.matcher(query);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "variable query '" + query + "' is not label_values(<selector>, <label>)");
        }
        return m.group(1).trim();
    }

    /** The label a {@code label_values(selector, label)} query lists. */
    static String labelValuesLabel(String query) {
        Matcher m = LABEL_VALUES.matcher(query);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "variable query '" + query + "' is not label_values(<selector>, <label>)");
        }
        return m.group(2);
    }
}
