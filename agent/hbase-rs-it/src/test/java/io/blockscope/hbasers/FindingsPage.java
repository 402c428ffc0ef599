package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A findings page ({@link Source}), written from one run of its test class: per finding the
 * release measured, the bytes the agent counted at each parameter value next to what HBase's source
 * predicts (and as a chart, docs/images/findings/), the site the agent named, the zero-copy
 * alternative's run, and a draft report. Every
 * figure on the page comes from the run; the prose around it (the law, the advice, the change
 * proposed) is read from HBase's source. {@link #check} fails when the committed page differs from
 * this run's, and with {@code -Dblockscope.features.update=true} rewrites it instead.
 */
final class FindingsPage {

    /** Each finding's chart, {@code <anchor>.svg}, written by the same run. */
    static final String CHARTS = "docs/images/findings/";

    /**
     * A page of findings and the test class that writes it: HBase's code that any RegionServer runs,
     * and its security coprocessors, which need a RegionServer of their own.
     */
    enum Source {
        CORE(
                "docs/hbase-findings.md",
                RegionServerFindingsTest.class,
                "# What HBase's own code copies: findings",
                "HBase's own code (filters, comparators, column interpreters, version trackers, Append) makes",
                "Findings in HBase's security coprocessors, which need a RegionServer that loads them, are on"
                        + " [their own page](hbase-findings-security.md); what HBase's code leaks, on"
                        + " [hbase-findings-leaks.md](hbase-findings-leaks.md).",
                List.of(RegionServerFindings25Test.RELEASE, RegionServerFindings24Test.RELEASE)),
        SECURITY(
                "docs/hbase-findings-security.md",
                RegionServerSecurityFeaturesTest.class,
                "# What HBase's security coprocessors copy: findings",
                "HBase's security coprocessors (the AccessController's `AccessControlFilter`, the"
                        + " VisibilityController's `VisibilityLabelFilter`, loaded as HBase's reference guide loads"
                        + " them, authorization on) make",
                "The findings in the rest of HBase's code are on [their own page](hbase-findings.md).",
                List.of());

        final String page;
        final String testClass;
        final String heading;
        final String scope;
        final String elsewhere;
        /** The other releases every finding of the page is measured on, each on its own page. */
        final List<String> alsoMeasured;

        Source(String page, Class<?> test, String heading, String scope, String elsewhere, List<String> alsoMeasured) {
            this.page = page;
            this.testClass = test.getSimpleName();
            this.heading = heading;
            this.scope = scope;
            this.elsewhere = elsewhere;
            this.alsoMeasured = alsoMeasured;
        }

        /** "2.5.11 ([page](...)) and 2.4.18 ([page](...))", or "" when none. */
        String alsoMeasuredLinks() {
            return alsoMeasured.stream()
                    .map(r -> "[" + r + "]("
                            + Path.of(ReleaseFindingsPage.path(r)).getFileName() + ")")
                    .collect(Collectors.joining(" and "));
        }

        String command() {
            return FindingsPage.command(testClass);
        }
    }

    /** The command that runs {@code testClass} alone, as the pages quote it. */
    static String command(String testClass) {
        return "mvn -B -ntp -pl agent/hbase-rs-it -am verify -Dtest=" + testClass + " \\\n"
                + "    -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=NONE -Dfailsafe.failIfNoSpecifiedTests=false";
    }

    /** One parameter value: how many units the read handed the code, the bytes counted and predicted. */
    record Point(String parameter, long units, long bytes, long predicted, int results) {}

    /**
     * Another way to the same answers, run on the same data: HBase's zero-copy one, or (where none
     * exists) the smallest fix, as test code. {@code kind} heads its line; {@code noun} names what
     * {@code results} counts (cells, answers).
     */
    record Alternative(
            String kind, String name, String comparedWith, int results, String noun, boolean sameResults, long bytes) {}

    static final class Finding {
        final String anchor;
        final String title;
        String verdict = "";
        String parameter = "";
        String unit = "";
        String decidedIn = "";
        String law = "";
        String sites = "";
        final List<Point> points = new ArrayList<>();
        final List<Alternative> alternatives = new ArrayList<>();
        String noAlternative = "";
        /** Where else the code is, after the release measured (the draft report's affected versions). */
        String elsewhere = "the same lines are unchanged on HBase's branch-2 and master (their heads of 2026-08-19,"
                + " read 2026-11-29).";
        /** What the last column of the measurements counts. */
        String returned = "cells returned";
        /** The summary's "zero-copy today" cell. */
        String today = "";

        String operator = "";
        String upstream = "";
        String reportTitle = "";
        String change = "";

        Finding(String anchor, String title) {
            this.anchor = anchor;
            this.title = title;
        }
    }

    private final Source source;
    private final String release;
    private final List<Finding> findings;

    FindingsPage(Source source, String release, List<Finding> findings) {
        this.source = source;
        this.release = release;
        this.findings = List.copyOf(findings);
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append(source.heading)
                .append("\n\n<!-- generated by ")
                .append(source.testClass)
                .append(": do not edit, run it with -Dblockscope.features.update=true -->\n\n")
                .append("Copies of offheap cell bytes onto the heap that ")
                .append(source.scope)
                .append(" where nothing requires them, each measured on a real HBase ")
                .append(release)
                .append(" RegionServer whose blocks are in the offheap BucketCache, with the agent at"
                        + " `copy.sample=1` (every copy counted, in bytes, and named). Each finding is run at two or"
                        + " more parameter values to measure how the copy grows, and the run asserts the bytes the"
                        + " agent counted equal what the release's source predicts, at the site the agent names"
                        + " (the class, method and source line of the release). Where HBase has a zero-copy way to"
                        + " the same answer, it runs on the same data and must return the same cells and count no"
                        + " copy. Every figure below is written by that run, which fails when this page differs:\n\n")
                .append("```bash\n")
                .append(source.command())
                .append("\n# after a change that moves a figure: the same with -Dblockscope.features.update=true,"
                        + " then commit\n```\n\n")
                .append(source.elsewhere)
                .append(
                        source.alsoMeasured.isEmpty()
                                ? ""
                                : " The same runs on " + source.alsoMeasuredLinks() + " RegionServers find every"
                                        + " copy below with the same figures, at their releases' own source lines.")
                .append("\n\n");
        out.append("| finding | verdict | bytes copied, as measured | site the agent names | zero-copy today |\n");
        out.append("|---|---|---|---|---|\n");
        for (Finding f : findings) {
            out.append("| [")
                    .append(f.title)
                    .append("](#")
                    .append(f.anchor)
                    .append(") | ")
                    .append(f.verdict)
                    .append(" | ")
                    .append(pointsInline(f))
                    .append(" | ")
                    .append(code(f.sites))
                    .append(" | ")
                    .append(f.today)
                    .append(" |\n");
        }
        for (Finding f : findings) {
            out.append("\n<a id=\"").append(f.anchor).append("\"></a>\n");
            out.append("## ").append(f.title).append("\n\n");
            out.append("**")
                    .append(capitalize(f.verdict))
                    .append("** on ")
                    .append(release)
                    .append(". ");
            out.append(f.decidedIn).append("\n\n");
            out.append("| ")
                    .append(f.parameter)
                    .append(" | ")
                    .append(f.unit)
                    .append("s | bytes the agent counted | per ")
                    .append(f.unit)
                    .append(" | HBase's source predicts | ")
                    .append(f.returned)
                    .append(" |\n");
            out.append("|---|---|---|---|---|---|\n");
            for (Point p : f.points) {
                out.append("| ")
                        .append(p.parameter())
                        .append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", p.units()))
                        .append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", p.bytes()))
                        .append(" | ")
                        .append(perUnit(p))
                        .append(" B | ")
                        .append(String.format(Locale.ROOT, "%,d", p.predicted()))
                        .append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", p.results()))
                        .append(" |\n");
            }
            out.append("\n![")
                    .append(f.title)
                    .append(": bytes copied per ")
                    .append(f.unit)
                    .append(", as measured](")
                    .append(chartPath(f).substring("docs/".length()))
                    .append(")\n");
            out.append("\n- **How it grows:** ").append(f.law).append('\n');
            out.append("- **Source line** (as the agent names it): ")
                    .append(code(f.sites))
                    .append('\n');
            if (f.alternatives.isEmpty()) {
                out.append("- **Zero-copy alternative:** ")
                        .append(f.noAlternative)
                        .append('\n');
            }
            for (Alternative a : f.alternatives) {
                out.append("- **")
                        .append(a.kind())
                        .append(":** ")
                        .append(a.name())
                        .append(" on the same data as ")
                        .append(a.comparedWith())
                        .append(": ")
                        .append(counted(a))
                        .append(", ")
                        .append(a.sameResults() ? "the same" : "OTHER ones")
                        .append(", ")
                        .append(String.format(Locale.ROOT, "%,d", a.bytes()))
                        .append(" bytes copied.\n");
            }
            out.append("- **What an operator can do today:** ")
                    .append(f.operator)
                    .append('\n');
            out.append("- **Upstream:** ").append(f.upstream).append('\n');
            out.append("\n<details><summary>Draft report for HBase's issue tracker</summary>\n\n");
            out.append("**Title:** ").append(f.reportTitle).append("\n\n");
            out.append("**Affected versions:** ")
                    .append(release)
                    .append(source.alsoMeasured.isEmpty() ? "" : ", " + String.join(", ", source.alsoMeasured))
                    .append(" (measured); ")
                    .append(f.elsewhere)
                    .append("\n\n");
            out.append("**Reproduction:** blockscope's `")
                    .append(source.testClass)
                    .append("` (a standalone RegionServer with an offheap BucketCache, blocks cached, the blockscope"
                            + " agent counting every copy):\n\n");
            out.append("```bash\n").append(source.command()).append("\n```\n\n");
            out.append("**Measured:** ").append(measuredSentence(f)).append("\n\n");
            out.append("**Proposed change:** ").append(f.change).append("\n\n</details>\n");
        }
        return out.toString();
    }

    private static String pointsInline(Finding f) {
        return f.points.stream()
                .map(p -> p.parameter() + ": " + perUnit(p) + " B/" + f.unit)
                .collect(Collectors.joining("; "));
    }

    private String measuredSentence(Finding f) {
        String points = f.points.stream()
                .map(p -> String.format(
                        Locale.ROOT,
                        "%s: %,d bytes over %,d %ss (%s B each)",
                        p.parameter(),
                        p.bytes(),
                        p.units(),
                        f.unit,
                        perUnit(p)))
                .collect(Collectors.joining("; "));
        String alternatives = f.alternatives.stream()
                .map(a -> String.format(
                        Locale.ROOT,
                        " %s returns the same %s with %,d bytes copied.",
                        capitalize(a.name()),
                        counted(a),
                        a.bytes()))
                .collect(Collectors.joining());
        return "HBase " + release + ", copies of offheap cell bytes onto the heap at " + code(f.sites) + ": " + points
                + "." + alternatives;
    }

    /** "900 cells", "1 answer". */
    private static String counted(Alternative a) {
        String noun = a.results() == 1 && a.noun().endsWith("s")
                ? a.noun().substring(0, a.noun().length() - 1)
                : a.noun();
        return String.format(Locale.ROOT, "%,d %s", a.results(), noun);
    }

    static String perUnit(Point p) {
        if (p.units() == 0) {
            return "—";
        }
        if (p.bytes() % p.units() == 0) {
            return String.format(Locale.ROOT, "%,d", p.bytes() / p.units());
        }
        return new java.math.BigDecimal(p.bytes())
                .divide(java.math.BigDecimal.valueOf(p.units()), 2, java.math.RoundingMode.HALF_EVEN)
                .stripTrailingZeros()
                .toPlainString();
    }

    static String code(String sites) {
        return sites.isEmpty() ? "—" : "`" + sites.replace(", ", "`, `") + "`";
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Where {@code f}'s chart goes, relative to the repository (the page links it relative to docs/). */
    static String chartPath(Finding f) {
        return CHARTS + f.anchor + ".svg";
    }

    /**
     * {@code f}'s bytes per unit at each parameter value as horizontal bars, scaled to the largest:
     * the law at a glance. Plain SVG, no script, a few hundred bytes.
     */
    static String chart(Finding f) {
        int rowHeight = 24;
        int labelWidth = 300;
        int barWidth = 220;
        int width = labelWidth + barWidth + 90;
        int height = 30 + rowHeight * f.points.size();
        double max =
                f.points.stream().mapToDouble(FindingsPage::perUnitValue).max().orElse(1);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " font-family=\"sans-serif\" font-size=\"12\">\n",
                width,
                height,
                width,
                height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"16\" font-weight=\"bold\">%s (bytes per %s)</text>\n",
                8,
                xml(f.title),
                xml(f.unit)));
        for (int i = 0; i < f.points.size(); i++) {
            Point p = f.points.get(i);
            int y = 30 + rowHeight * i;
            double bar = max == 0 ? 0 : barWidth * perUnitValue(p) / max;
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                    labelWidth - 8,
                    y + 13,
                    xml(p.parameter().replace("`", ""))));
            svg.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"#4e79a7\"/>\n",
                    labelWidth,
                    y + 1,
                    bar));
            svg.append(String.format(
                    Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s B</text>\n", labelWidth + bar + 6, y + 13, perUnit(p)));
        }
        return svg.append("</svg>\n").toString();
    }

    private static double perUnitValue(Point p) {
        return p.units() == 0 ? 0 : (double) p.bytes() / p.units();
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The page and each finding's chart, as this run writes them, by path relative to the repository. */
    Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put(source.page, render());
        for (Finding f : findings) {
            files.put(chartPath(f), chart(f));
        }
        return files;
    }

    void check(Path repository) throws IOException {
        Map<String, String> files = files();
        writeOrCompare(repository, files, files.get(source.page));
    }

    /**
     * Compares generated {@code files} (by path relative to {@code repository}) with the committed
     * ones, showing {@code shown} when they differ, or with {@code -Dblockscope.features.update=true}
     * writes them instead.
     */
    static void writeOrCompare(Path repository, Map<String, String> files, String shown) throws IOException {
        if (Boolean.getBoolean("blockscope.features.update")) {
            for (Map.Entry<String, String> e : files.entrySet()) {
                Path file = repository.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            }
            return;
        }
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path file = repository.resolve(e.getKey());
            String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            if (!committed.equals(e.getValue())) {
                differ.add(e.getKey());
            }
        }
        assertEquals(
                List.of(),
                differ,
                "differ from this run (rerun with -Dblockscope.features.update=true and commit):\n" + shown);
    }
}
