package io.blockscope.exporter.page;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subset of Markdown docs/runbooks.md is written in, as HTML: headings (with the anchors GitHub
 * gives them, which the alerts' runbook_url ends in), paragraphs, fenced code, lists, tables, block
 * quotes, and inline code, bold, italics and links. Written here rather than shaded from a library:
 * a few hundred lines instead of a parser in every agent jar, and no raw HTML passes through: every
 * character of the document is escaped, and only {@code #anchor} and http(s) links become links.
 */
final class MarkdownHtml {

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern ITEM = Pattern.compile("^([-*+]|\\d{1,9}[.)])(\\s+)(.*)$");
    private static final Pattern TABLE_RULE = Pattern.compile("^\\|?\\s*:?-+:?\\s*(\\|\\s*:?-+:?\\s*)*\\|?\\s*$");

    /** Anchors given so far, to number repeated headings as GitHub does (name, name-1, name-2). */
    private final Map<String, Integer> anchors = new HashMap<>();

    private MarkdownHtml() {}

    /** The document as HTML (a sequence of block elements). */
    static String render(String markdown) {
        StringBuilder html = new StringBuilder(markdown.length() * 5 / 4);
        new MarkdownHtml().blocks(lines(markdown), html);
        return html.toString();
    }

    /** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .trim()
                .replace(' ', '-');
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            lines.add(line.replace("\t", "    "));
        }
        return lines;
    }

    private void blocks(List<String> lines, StringBuilder html) {
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            String trimmed = line.strip();
            Matcher heading = HEADING.matcher(trimmed);
            if (trimmed.isEmpty()) {
                i++;
            } else if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                i = fence(lines, i, html);
            } else if (heading.matches() && indent(line) < 4) {
                int level = heading.group(1).length();
                html.append("<h")
                        .append(level)
                        .append(" id=\"")
                        .append(Html.escape(anchor(heading.group(2))))
                        .append("\">");
                inline(heading.group(2), html);
                html.append("</h").append(level).append(">\n");
                i++;
            } else if (trimmed.startsWith("|")
                    && i + 1 < lines.size()
                    && TABLE_RULE.matcher(lines.get(i + 1).strip()).matches()) {
                i = table(lines, i, html);
            } else if (ITEM.matcher(trimmed).matches()) {
                i = list(lines, i, html);
            } else if (trimmed.startsWith(">")) {
                List<String> quoted = new ArrayList<>();
                while (i < lines.size() && lines.get(i).strip().startsWith(">")) {
                    String q = lines.get(i).strip().substring(1);
                    quoted.add(q.startsWith(" ") ? q.substring(1) : q);
                    i++;
                }
                html.append("<blockquote>\n");
                blocks(quoted, html);
                html.append("</blockquote>\n");
            } else {
                StringBuilder text = new StringBuilder();
                while (i < lines.size() && !lines.get(i).isBlank() && (text.length() == 0 || !startsBlock(lines, i))) {
                    text.append(text.length() == 0 ? "" : "\n")
                            .append(lines.get(i).strip());
                    i++;
                }
                html.append("<p>");
                inline(text.toString(), html);
                html.append("</p>\n");
            }
        }
    }

    private static boolean startsBlock(List<String> lines, int i) {
        String t = lines.get(i).strip();
        return t.startsWith("```")
                || t.startsWith("~~~")
                || HEADING.matcher(t).matches()
                || ITEM.matcher(t).matches()
                || t.startsWith(">")
                || (t.startsWith("|")
                        && i + 1 < lines.size()
                        && TABLE_RULE.matcher(lines.get(i + 1).strip()).matches());
    }

    private static int indent(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == ' ') {
            n++;
        }
        return n;
    }

    private String anchor(String heading) {
        String base = slug(heading);
        Integer seen = anchors.get(base);
        anchors.put(base, seen == null ? 1 : seen + 1);
        return seen == null ? base : base + "-" + seen;
    }

    /** A fenced code block from line {@code start}; returns the line after it. */
    private static int fence(List<String> lines, int start, StringBuilder html) {
        String open = lines.get(start);
        int indent = indent(open);
        String marker = open.strip().substring(0, 3);
        html.append("<pre><code>");
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).strip().startsWith(marker)) {
            String line = lines.get(i);
            html.append(Html.escape(line.substring(Math.min(indent, indent(line)))))
                    .append('\n');
            i++;
        }
        html.append("</code></pre>\n");
        return Math.min(i + 1, lines.size());
    }

    /** A pipe table from line {@code start} (its header), whose next line is the rule; returns the line after it. */
    private int table(List<String> lines, int start, StringBuilder html) {
        html.append("<table>\n<thead><tr>");
        for (String cell : cells(lines.get(start))) {
            html.append("<th>");
            inline(cell, html);
            html.append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        int i = start + 2;
        while (i < lines.size() && lines.get(i).strip().startsWith("|")) {
            html.append("<tr>");
            for (String cell : cells(lines.get(i))) {
                html.append("<td>");
                inline(cell, html);
                html.append("</td>");
            }
            html.append("</tr>\n");
            i++;
        }
        html.append("</tbody></table>\n");
        return i;
    }

    /** A row's cells: split at pipes outside code spans and not escaped. */
    private static List<String> cells(String row) {
        String r = row.strip();
        if (r.startsWith("|")) {
            r = r.substring(1);
        }
        if (r.endsWith("|") && !r.endsWith("\\|")) {
            r = r.substring(0, r.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == '\\' && i + 1 < r.length() && r.charAt(i + 1) == '|') {
                cell.append(code ? "\\|" : "|");
                i++;
            } else if (c == '`') {
                code = !code;
                cell.append(c);
            } else if (c == '|' && !code) {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().strip());
        return cells;
    }

    /**
     * A list from line {@code start}: each item is its first line's text and the lines that belong to it
     * (indented, or continuing its paragraph), rendered as blocks of their own; returns the line after it.
     */
    private int list(List<String> lines, int start, StringBuilder html) {
        int base = indent(lines.get(start));
        boolean ordered = Character.isDigit(lines.get(start).strip().charAt(0));
        String tag = ordered ? "ol" : "ul";
        html.append('<').append(tag).append(">\n");
        int i = start;
        while (i < lines.size()) {
            Matcher item = ITEM.matcher(lines.get(i).strip());
            if (!item.matches()
                    || indent(lines.get(i)) != base
                    || Character.isDigit(item.group(1).charAt(0)) != ordered) {
                break;
            }
            int contentIndent = base + item.group(1).length() + item.group(2).length();
            List<String> body = new ArrayList<>();
            body.add(item.group(3));
            i++;
            while (i < lines.size()) {
                String line = lines.get(i);
                if (line.isBlank()) {
                    int next = i;
                    while (next < lines.size() && lines.get(next).isBlank()) {
                        next++;
                    }
                    if (next < lines.size() && indent(lines.get(next)) >= contentIndent) {
                        for (; i < next; i++) {
                            body.add("");
                        }
                        continue;
                    }
                    break;
                }
                int lineIndent = indent(line);
                if (lineIndent >= contentIndent) {
                    body.add(line.substring(contentIndent));
                } else if (lineIndent > base || !startsBlock(lines, i)) {
                    body.add(line.strip()); // a nested item, or the item's paragraph going on
                } else {
                    break;
                }
                i++;
            }
            html.append("<li>");
            blocks(body, html);
            html.append("</li>\n");
            int next = i;
            while (next < lines.size() && lines.get(next).isBlank()) {
                next++;
            }
            if (next < lines.size()
                    && next > i
                    && ITEM.matcher(lines.get(next).strip()).matches()
                    && indent(lines.get(next)) == base) {
                i = next; // a loose list: items apart
            }
        }
        html.append("</").append(tag).append(">\n");
        return i;
    }

    /** Code spans, bold, italics and links; everything else is escaped text. */
    private static void inline(String text, StringBuilder html) {
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && "\\`*_[]()#+-.!|<>{}".indexOf(text.charAt(i + 1)) >= 0) {
                html.append(Html.escape(String.valueOf(text.charAt(i + 1))));
                i += 2;
                continue;
            }
            if (c == '`') {
                int ticks = run(text, i, '`');
                String fence = text.substring(i, i + ticks);
                int end = text.indexOf(fence, i + ticks);
                if (end > 0) {
                    String code = text.substring(i + ticks, end);
                    if (code.length() > 1 && code.startsWith(" ") && code.endsWith(" ")) {
                        code = code.substring(1, code.length() - 1);
                    }
                    html.append("<code>")
                            .append(Html.escape(code.replace('\n', ' ')))
                            .append("</code>");
                    i = end + ticks;
                    continue;
                }
            }
            if ((c == '*' || c == '_') && i + 1 < text.length() && text.charAt(i + 1) == c) {
                int end = text.indexOf(text.substring(i, i + 2), i + 2);
                if (end > i + 2) {
                    html.append("<strong>");
                    inline(text.substring(i + 2, end), html);
                    html.append("</strong>");
                    i = end + 2;
                    continue;
                }
            }
            if (c == '*' && i + 1 < text.length() && !Character.isWhitespace(text.charAt(i + 1))) {
                int end = text.indexOf('*', i + 1);
                if (end > i + 1 && !Character.isWhitespace(text.charAt(end - 1))) {
                    html.append("<em>");
                    inline(text.substring(i + 1, end), html);
                    html.append("</em>");
                    i = end + 1;
                    continue;
                }
            }
            if (c == '[') {
                int close = text.indexOf("](", i + 1);
                int end = close < 0 ? -1 : text.indexOf(')', close + 2);
                if (close > 0 && end > 0 && text.indexOf(']', i + 1) == close) {
                    link(
                            text.substring(i + 1, close),
                            text.substring(close + 2, end).strip(),
                            html);
                    i = end + 1;
                    continue;
                }
            }
            html.append(Html.escape(String.valueOf(c)));
            i++;
        }
    }

    private static int run(String text, int from, char c) {
        int n = 0;
        while (from + n < text.length() && text.charAt(from + n) == c) {
            n++;
        }
        return n;
    }

    /**
     * A link: a section of this page, or an absolute http(s) address. Links to the other documents
     * (relative paths) have nothing to open here: their text stays, with the document named.
     */
    private static void link(String label, String target, StringBuilder html) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (target.startsWith("#") || lower.startsWith("https://") || lower.startsWith("http://")) {
            html.append("<a href=\"").append(Html.escape(target)).append("\">");
            inline(label, html);
            html.append("</a>");
        } else {
            inline(label, html);
            html.append(" <span class=\"doc\">(docs/")
                    .append(Html.escape(target))
                    .append(")</span>");
        }
    }
}
