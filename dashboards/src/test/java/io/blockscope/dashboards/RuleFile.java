package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/** A Prometheus rule file (alerting and recording rules), read with Jackson's YAML support. */
final class RuleFile {

    /** One rule: {@code name} is the alert name or the recorded series name. */
    record Rule(
            String name,
            boolean alert,
            String expr,
            String forDuration,
            Map<String, String> labels,
            Map<String, String> annotations) {}

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE));

    private final Path path;
    private final JsonNode root;

    private RuleFile(Path path, JsonNode root) {
        this.path = path;
        this.root = root;
    }

    static RuleFile read(Path path) {
        try {
            return new RuleFile(path, YAML.readTree(path.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rule file " + path, e);
        }
    }

    static RuleFile alerts() {
        return read(ModulePaths.alerts());
    }

    static RuleFile recordingRules() {
        return read(ModulePaths.recordingRules());
    }

    Path path() {
        return path;
    }

    List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode group : root.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                boolean alert = rule.has("alert");
                rules.add(new Rule(
                        alert
                                ? rule.path("alert").asText()
                                : rule.path("record").asText(),
                        alert,
                        rule.path("expr").asText(),
                        rule.path("for").asText(null),
                        strings(rule.path("labels")),
                        strings(rule.path("annotations"))));
            }
        }
        return rules;
    }

    List<Rule> alertRules() {
        return rules().stream().filter(Rule::alert).toList();
    }

    Set<String> recordedNames() {
        return rules().stream()
                .filter(r -> !r.alert())
                .map(Rule::name)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    /** Writes a copy in which every alert's {@code for} went through {@code rewrite}. */
    void writeWithFor(Path target, UnaryOperator<String> rewrite) {
        JsonNode copy = root.deepCopy();
        for (JsonNode group : copy.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    ((ObjectNode) rule)
                            .put("for", rewrite.apply(rule.path("for").asText("0s")));
                }
            }
        }
        try {
            YAML.writeValue(target.toFile(), copy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> map = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
