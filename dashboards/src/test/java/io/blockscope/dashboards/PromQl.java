package io.blockscope.dashboards;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough PromQL lexing to check expressions statically: the metric names an expression reads,
 * the label matchers of each selector and the range windows it uses. Parsing proper (is it valid
 * PromQL?) is promtool's job; this only has to be right for expressions that promtool accepts.
 */
public final class PromQl {

    /** A vector selector: its metric name and the raw text between its braces (empty when none). */
    record Selector(String metric, String matchers) {}

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern BRACES = Pattern.compile("\\{[^{}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^\\[\\]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^()]*\\)");
    private static final Pattern AGGREGATION_CLAUSE = Pattern.compile("(by|without)\\s*\\(");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "atan2",
            "inf",
            "nan",
            "Inf",
            "NaN",
            "e",
            "E");
    private static final Pattern GRAFANA_VARIABLE =
            Pattern.compile("\\$\\{([A-Za-z0-9_]+)(?::[^}]*)?}|\\[\\[([A-Za-z0-9_]+)(?::[^]]*)?]]|\\$([A-Za-z0-9_]+)");

    private PromQl() {}

    /** Metric names the expression selects, in order of first appearance. */
    static Set<String> metricNames(String expr) {
        Set<String> names = new LinkedHashSet<>();
        for (Selector selector : selectors(expr)) {
            names.add(selector.metric());
        }
        return names;
    }

    /** Every vector selector that names a metric, with its matchers. */
    static List<Selector> selectors(String expr) {
        // Blank out strings first (they may hold braces or names), remembering the braces' content.
        String text = blank(STRING, expr, '"');
        List<Selector> selectors = new ArrayList<>();
        Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            String word = m.group();
            if (KEYWORDS.contains(word)
                    || precededByDigit(text, m.start())
                    || precededByDollar(text, m.start())
                    || insideBlock(text, m.start())) {
                continue;
            }
            int next = skipSpaces(text, m.end());
            if (next < text.length() && text.charAt(next) == '('
                    || AGGREGATION_CLAUSE
                            .matcher(text)
                            .region(next, text.length())
                            .lookingAt()) {
                continue; // a function or an aggregation (sum by (x) (...))
            }
            if (followsGrouping(text, m.start())) {
                continue; // a label name in by (...), on (...), ...
            }
            String matchers = "";
            if (next < text.length() && text.charAt(next) == '{') {
                int close = text.indexOf('}', next);
                matchers = expr.substring(next + 1, close).trim();
            }
            selectors.add(new Selector(word, matchers));
        }
        return selectors;
    }

    /** The windows of all range selectors and subqueries, e.g. {@code 5m} or {@code $__rate_interval}. */
    static List<String> rangeWindows(String expr) {
        String text = blank(STRING, expr, '"');
        List<String> windows = new ArrayList<>();
        Matcher m = BRACKETS.matcher(text);
        while (m.find()) {
            windows.add(expr.substring(m.start() + 1, m.end() - 1).trim());
        }
        return windows;
    }

    /** Grafana variable names the expression uses ({@code $x}, {@code ${x}}, {@code ${x:fmt}}, {@code [[x]]}). */
    static Set<String> grafanaVariables(String expr) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = GRAFANA_VARIABLE.matcher(expr);
        while (m.find()) {
            names.add(firstNonNull(m.group(1), m.group(2), m.group(3)));
        }
        return names;
    }

    /**
     * Replaces Grafana variables with values, so the expression is plain PromQL.
     *
     * @throws IllegalArgumentException naming a variable that has no value
     */
    public static String resolveGrafanaVariables(String expr, Map<String, String> values) {
        Matcher m = GRAFANA_VARIABLE.matcher(expr);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = firstNonNull(m.group(1), m.group(2), m.group(3));
            String value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no value for Grafana variable $" + name + " in: " + expr);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String blank(Pattern pattern, String text, char keep) {
        StringBuilder out = new StringBuilder(text);
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            for (int i = m.start() + 1; i < m.end() - 1; i++) {
                out.setCharAt(i, ' ');
            }
            out.setCharAt(m.start(), keep);
            out.setCharAt(m.end() - 1, keep);
        }
        return out.toString();
    }

    /** True inside {...} (label names) or [...] (durations such as 5m). */
    private static boolean insideBlock(String text, int index) {
        return enclosed(text, index, '{', '}') || enclosed(text, index, '[', ']');
    }

    private static boolean enclosed(String text, int index, char open, char close) {
        int lastOpen = text.lastIndexOf(open, index);
        int lastClose = text.lastIndexOf(close, index);
        return lastOpen > lastClose;
    }

    private static boolean precededByDigit(String text, int index) {
        // The unit of a duration (5m in "offset 5m") or an exponent (1e3) is not a name.
        return index > 0 && Character.isDigit(text.charAt(index - 1));
    }

    /** A Grafana variable such as {@code $__range} in {@code offset $__range}. */
    private static boolean precededByDollar(String text, int index) {
        return index > 0 && text.charAt(index - 1) == '$';
    }

    private static boolean followsGrouping(String text, int index) {
        Matcher m = GROUPING.matcher(text);
        while (m.find()) {
            if (index > m.start() && index < m.end()) {
                return true;
            }
        }
        return false;
    }

    private static int skipSpaces(String text, int index) {
        while (index < text.length() && Character.isWhitespace(text.charAt(index))) {
            index++;
        }
        return index;
    }

    private static String firstNonNull(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        throw new IllegalStateException("no group matched");
    }
}
