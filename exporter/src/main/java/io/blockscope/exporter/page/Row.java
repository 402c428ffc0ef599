package io.blockscope.exporter.page;

/**
 * One row of a page table, cell by cell, so every table escapes and classes its cells alike: text
 * from outside is escaped, figures are the page's own formatting and go in as they are.
 */
final class Row {

    private final StringBuilder html;

    private Row(StringBuilder html) {
        this.html = html;
    }

    static Row start(StringBuilder html, String cssClass) {
        html.append("<tr class=\"").append(cssClass).append("\">");
        return new Row(html);
    }

    /** The row's name (a site, a table, a user): escaped. */
    Row name(String text) {
        html.append("<td class=\"name\">").append(Html.escape(text)).append("</td>");
        return this;
    }

    /** The row's name with a link to the HBase finding that names it, when one does. */
    Row name(String text, Findings.Link finding) {
        if (finding == null) {
            return name(text);
        }
        html.append("<td class=\"name\">")
                .append(Html.escape(text))
                .append(' ')
                .append(finding.html())
                .append("</td>");
        return this;
    }

    /** A text cell: escaped. */
    Row text(String text) {
        html.append("<td>").append(Html.escape(text)).append("</td>");
        return this;
    }

    /** {@link #text} in a column only some tables have: nothing when {@code column} is off. */
    Row textIf(boolean column, String text) {
        return column ? text(text) : this;
    }

    /** A figure, right-aligned; {@code cssClass} adds to {@code num} (empty for none). */
    Row num(String cssClass, String formatted) {
        html.append(cssClass.isEmpty() ? "<td class=\"num\">" : "<td class=\"num " + cssClass + "\">")
                .append(formatted)
                .append("</td>");
        return this;
    }

    /** A cell of the page's own markup (a chart). */
    Row markup(String content) {
        html.append("<td>").append(content).append("</td>");
        return this;
    }

    /** A whole cell the page built itself, {@code <td>} and all. */
    Row cell(String td) {
        html.append(td);
        return this;
    }

    void end() {
        html.append("</tr>");
    }
}
