package io.blockscope.exporter.page;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The page's HTML: the whole document, and the live part alone that the page's script fetches to
 * refresh itself. Every value that came from the host (sites, tiers, reasons) goes through
 * {@link Html#escape}; everything else is numbers and fixed text.
 */
final class PageRenderer {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final int MAX_ROWS = 20;
    /** Tables and users shown: the top of each. */
    private static final int OWNER_ROWS = 10;
    /**
     * Where the runbook shows the calls that read an offheap cell in place: this endpoint's own copy
     * (relative, so it works behind any host name, TLS or proxy prefix the page was opened with).
     */
    static final String RUNBOOK_COPY = Documents.RUNBOOKS.path.substring(1) + "#blockscopehotcopypath";

    private PageRenderer() {}

    static byte[] page(ReadPathView view, String scriptPath, String fragmentPath) {
        StringBuilder html = new StringBuilder(16384);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>blockscope: read path</title><style>")
                .append(STYLE)
                .append("</style></head><body data-refreshes=\"0\" data-fragment=\"")
                .append(Html.escape(fragmentPath))
                .append("\"><header><b>blockscope</b> read path of this JVM")
                .append("<span id=\"status\" class=\"muted\"></span>")
                .append("<a class=\"right\" href=\"metrics\">/metrics</a></header><main id=\"live\">");
        fragment(view, html);
        html.append("</main><footer class=\"muted\">Refreshes every 2 s. Read-only; figures from this JVM's agent, ")
                .append("the same series Prometheus scrapes at /metrics. Copy sites and leaks are sampled ")
                .append("(agent options copy.sample and leak.sample).</footer><script src=\"")
                .append(Html.escape(scriptPath))
                .append("\"></script></body></html>\n");
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] fragment(ReadPathView view) {
        StringBuilder html = new StringBuilder(8192);
        fragment(view, html);
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void fragment(ReadPathView view, StringBuilder html) {
        verdict(view, html);
        html.append("<div class=\"grid\">");
        copySites(view, html);
        price(view, html);
        owners(view, html);
        leaks(view, html);
        references(view, html);
        gc(view, html);
        buckets(view, html);
        html.append("</div><p class=\"muted\" id=\"updated\">Updated ")
                .append(CLOCK.format(Instant.ofEpochMilli(view.nowMillis)))
                .append("; rates over the last ")
                .append(view.hasRates ? Format.duration(Math.round(view.rateWindowSeconds * 1000)) : "(measuring)")
                .append(", history ")
                .append(Format.duration(view.historyMillis))
                .append(".</p>");
    }

    private static void verdict(ReadPathView view, StringBuilder html) {
        String css;
        String headline;
        switch (view.verdict) {
            case ZERO_COPY:
                css = "ok";
                headline = "Zero-copy: no cell data copied onto the heap";
                break;
            case COPYING:
                css = "warn";
                headline = "Copying: " + Format.bytes(view.copyBytesPerSecond) + "/s onto the heap";
                break;
            case LEAKING:
                css = "bad";
                headline = "Leaking: " + Format.count(view.recentLeaks)
                        + " sampled block reference(s) leaked in the last minute";
                break;
            case COPYING_AND_LEAKING:
                css = "bad";
                headline = "Copying " + Format.bytes(view.copyBytesPerSecond) + "/s and leaking "
                        + Format.count(view.recentLeaks) + " sampled reference(s) in the last minute";
                break;
            case MEASURING:
                css = "idle";
                headline = "Measuring: the next refresh shows the verdict";
                break;
            default:
                css = "idle";
                headline = "No block cache reads seen yet";
                break;
        }
        html.append("<section id=\"verdict\" class=\"verdict ")
                .append(css)
                .append("\" data-verdict=\"")
                .append(view.verdict.name().toLowerCase(java.util.Locale.ROOT))
                .append("\"><h1>")
                .append(Html.escape(headline))
                .append("</h1><p>");
        if (view.readPathMode != null) {
            html.append("Read path mode <b>")
                    .append(Html.escape(view.readPathMode))
                    .append("</b>. ");
        }
        if (view.hasRates) {
            html.append(Format.count(view.getsPerSecond))
                    .append(" block cache gets/s, ")
                    .append(Format.bytes(view.copyBytesPerSecond))
                    .append("/s copied onto the heap");
            if (view.copyBytesPerSecond > 0 && view.price.unavailable == null) {
                html.append(" (")
                        .append(Format.percent(view.price.copyShare))
                        .append(" of this server's heap allocation)");
            }
            html.append(". ");
        } else {
            html.append("Measuring rates: the next refresh shows them. ");
        }
        html.append(Format.count(view.outstandingTotal())).append(" block references outstanding");
        if (view.leakTotal() > 0) {
            html.append(", ").append(Format.count(view.leakTotal())).append(" sampled leaks since start");
        }
        html.append(".</p></section>");
    }

    private static void copySites(ReadPathView view, StringBuilder html) {
        html.append("<section id=\"copy\"><h2>Top copy sites</h2>");
        List<ReadPathView.Site> sites = view.copySites;
        if (sites.isEmpty()) {
            noCopies(view, html);
            return;
        }
        double top = sites.get(0).bytesPerSecond;
        html.append("<table id=\"copy-sites\"><tr><th>call site (sampled)</th><th>bytes/s</th><th></th>"
                + "<th title=\"this site's copies over this server's heap allocation\">of heap alloc.</th>"
                + "<th>use instead</th></tr>");
        for (int i = 0; i < Math.min(MAX_ROWS, sites.size()); i++) {
            ReadPathView.Site s = sites.get(i);
            String rate = Format.bytes(s.bytesPerSecond) + "/s";
            Row.start(html, "site")
                    .name(s.name)
                    .cell("<td class=\"num rate\" data-bytes-per-second=\"" + Math.round(s.bytesPerSecond) + "\">"
                            + rate + "</td>")
                    .markup(Charts.share(s.name + ": " + rate, s.bytesPerSecond / top))
                    .cell(share(view.price, s.bytesPerSecond))
                    .cell("<td class=\"advice\">" + advice(view, s) + "</td>")
                    .end();
        }
        html.append("</table></section>");
    }

    /**
     * HBase's own copying feature at that site and its zero-copy alternative, as measured on a real
     * RegionServer; for any other class, where the runbook shows the calls that read in place.
     */
    private static String advice(ReadPathView view, ReadPathView.Site s) {
        StringBuilder a = new StringBuilder();
        if (s.advice == null) {
            a.append("<a href=\"" + RUNBOOK_COPY + "\">zero-copy calls (runbook)</a>");
        } else {
            a.append("<span class=\"feature\">")
                    .append(Html.escape(s.advice.feature))
                    .append("</span>: ")
                    .append(Html.escape(s.advice.instead));
        }
        if (s.finding != null) {
            a.append(' ').append(s.finding.html());
        }
        if (s.table != null) {
            a.append("<div class=\"who\">copying here most: table <b>")
                    .append(Html.escape(s.table))
                    .append("</b>, user <b>")
                    .append(Html.escape(s.user))
                    .append("</b> (sampled)</div>");
        } else if ((s.advice != null || s.finding != null) && !view.tableTotals.isEmpty()) {
            // no owner series for the site (an older agent, or copies outside any call): name the
            // server's top table and user, and say so
            a.append("<div class=\"who muted\">copying most on this server (not per site): table <b>")
                    .append(Html.escape(view.tableTotals.get(0).name))
                    .append("</b>");
            if (!view.users.isEmpty()) {
                a.append(", user <b>")
                        .append(Html.escape(view.users.get(0).name))
                        .append("</b>");
            }
            a.append("</div>");
        }
        if (s.lastCopy != null) {
            a.append("<div class=\"who muted\">last sampled copy: ")
                    .append(Html.escape(s.lastCopy))
                    .append("</div>");
        }
        return a.toString();
    }

    /** A site's share of heap allocation, or n/a with why as the cell's title. */
    private static String share(Price price, double bytesPerSecond) {
        String title = price.unavailable == null
                ? "stands for " + Format.decimal(price.youngPerMinute(bytesPerSecond)) + " young collections a minute"
                : price.unavailable;
        return "<td class=\"num share\" title=\"" + Html.escape(title) + "\">"
                + Html.escape(Format.percent(price.share(bytesPerSecond))) + "</td>";
    }

    /** What the copies cost: their share of heap allocation and the young collections it stands for. */
    private static void price(ReadPathView view, StringBuilder html) {
        Price p = view.price;
        html.append("<section id=\"price\"><h2>What copies cost the heap</h2><p>");
        if (p.unavailable != null) {
            html.append("Share of heap allocation: <b id=\"copy-share\">n/a</b> (")
                    .append(Html.escape(p.unavailable))
                    .append(").</p></section>");
            return;
        }
        html.append("Copies, <b>")
                .append(Format.bytes(view.copyBytesPerSecond))
                .append("/s</b> of <b id=\"allocated\">")
                .append(Format.bytes(p.allocatedBytesPerSecond))
                .append("/s</b> allocated: <b id=\"copy-share\">")
                .append(Html.escape(Format.percent(p.copyShare)))
                .append("</b> of this server's heap allocation. ");
        if (p.youngUnavailable == null) {
            html.append("That stands for <b id=\"copy-young\">")
                    .append(Format.decimal(p.youngPerMinute(view.copyBytesPerSecond)))
                    .append("</b> of its <b id=\"young\">")
                    .append(Format.decimal(p.youngPerMinute))
                    .append("</b> young collections a minute (")
                    .append(Html.escape(p.youngCollectors))
                    .append(", over the last ")
                    .append(Format.duration(view.historyMillis))
                    .append(").");
        } else {
            html.append("Young collections it stands for: <b id=\"copy-young\">n/a</b> (")
                    .append(Html.escape(p.youngUnavailable))
                    .append(").");
        }
        html.append("</p><p class=\"muted\">Allocation is JFR's estimate (jdk.ObjectAllocationSample); the rate")
                .append(" window is the page's. Each share assumes a copied byte costs the young generation what")
                .append(" any allocated byte does.</p></section>");
    }

    /** Ends a copy section that has nothing to list: none in the rate window, or no rates yet. */
    private static void noCopies(ReadPathView view, StringBuilder html) {
        html.append("<p class=\"muted\">")
                .append(
                        view.hasRates
                                ? "No copies onto the heap in the last "
                                        + Format.duration(Math.round(view.rateWindowSeconds * 1000)) + "."
                                : "Measuring.")
                .append("</p></section>");
    }

    /** Who copies: the top tables (per cell component) and users, exact counts, where the agent exports them. */
    private static void owners(ReadPathView view, StringBuilder html) {
        if (!view.hasOwners) {
            return; // a profile without context probes (the example server): nothing to say
        }
        html.append("<section id=\"owners\"><h2>Who copies</h2>");
        if (view.tables.isEmpty() && view.users.isEmpty()) {
            noCopies(view, html);
            return;
        }
        ownerTable("copy-tables", "table", true, view.tables, view.price, html);
        ownerTable("copy-users", "user", false, view.users, view.price, html);
        html.append("<p class=\"muted\">Every copy counted, not sampled. <code>(none)</code>: outside any table")
                .append(" or call; <code>(compaction)</code>, <code>(flush)</code>: the server's own work;")
                .append(
                        " <code>other</code>: past the agent's <code>tables</code>/<code>users</code> cap.</p></section>");
    }

    /**
     * One "who copies" table (nothing when {@code owners} is empty): a row of class {@code kind} per owner,
     * its cell component when {@code components}, its rate and its share of heap allocation.
     */
    private static void ownerTable(
            String id,
            String kind,
            boolean components,
            List<ReadPathView.Owner> owners,
            Price price,
            StringBuilder html) {
        if (owners.isEmpty()) {
            return;
        }
        html.append("<table id=\"")
                .append(id)
                .append("\"><tr><th>")
                .append(kind)
                .append("</th>");
        if (components) {
            html.append("<th>component</th>");
        }
        html.append("<th>bytes/s</th><th>of heap alloc.</th></tr>");
        for (int i = 0; i < Math.min(OWNER_ROWS, owners.size()); i++) {
            ReadPathView.Owner o = owners.get(i);
            Row row = Row.start(html, kind).name(o.name);
            if (components) {
                row.text(o.component);
            }
            row.num("rate", Format.bytes(o.bytesPerSecond) + "/s")
                    .cell(share(price, o.bytesPerSecond))
                    .end();
        }
        html.append("</table>");
    }

    private static void leaks(ReadPathView view, StringBuilder html) {
        html.append("<section id=\"leaks\"><h2>Leaked references</h2>");
        if (view.leaks.isEmpty()) {
            html.append(
                    "<p class=\"muted\">None detected (sampled block checkouts and pool buffers that were garbage collected or held past leak.age).</p>");
            leakTables(view, html); // stuck buffers are counted without a sampled leak
            html.append("</section>");
            return;
        }
        int rows = Math.min(MAX_ROWS, view.leaks.size());
        // the table and region of a site's last leak: only agents that know them (HBase's profile) get the column
        boolean where = view.leaks.subList(0, rows).stream().anyMatch(l -> !l.where.isEmpty());
        html.append(
                        "<table id=\"leak-rows\"><tr><th>acquired at</th><th>what</th><th>reason</th><th>leaked (sampled)</th><th>first seen</th><th>last seen</th>")
                .append(where ? "<th>last taken for</th></tr>" : "</tr>");
        for (int i = 0; i < rows; i++) {
            ReadPathView.Leak l = view.leaks.get(i);
            Row.start(html, "leak")
                    .name(l.site, l.finding)
                    .text("buffer".equals(l.kind) ? "pool buffer" : "block")
                    .text(l.reason)
                    .num("count", Format.count(l.count))
                    .num("", Format.duration(view.nowMillis - l.firstSeenMillis) + " ago")
                    .num("", Format.duration(view.nowMillis - l.lastSeenMillis) + " ago")
                    .textIf(where, l.where)
                    .end();
        }
        html.append("</table>");
        leakTables(view, html);
        html.append("</section>");
    }

    /** Whose leaks: the tables whose work took the leaked blocks and the stuck buffers (HBase's profile). */
    private static void leakTables(ReadPathView view, StringBuilder html) {
        if (view.leakTables.isEmpty()) {
            return;
        }
        html.append(
                "<table id=\"leak-tables\"><tr><th>table</th><th>leaked (sampled)</th><th>pool buffers stuck now</th></tr>");
        for (int i = 0; i < Math.min(MAX_ROWS, view.leakTables.size()); i++) {
            ReadPathView.LeakTable t = view.leakTables.get(i);
            Row.start(html, "leak-table")
                    .name(t.table)
                    .num("count", Format.count(t.leaked))
                    .num("count", Format.count(t.stuck))
                    .end();
        }
        html.append("</table><p class=\"muted\">The table the thread that took them worked for;")
                .append(" a flush's or a compaction's under its region's table.</p>");
    }

    private static void references(ReadPathView view, StringBuilder html) {
        html.append("<section id=\"refs\"><h2>Outstanding references</h2><p>");
        if (view.outstanding.isEmpty()) {
            html.append("<span class=\"muted\">No tiers reported.</span>");
        }
        for (Map.Entry<String, Double> e : view.outstanding.entrySet()) {
            html.append("<span class=\"kv\">")
                    .append(Html.escape(e.getKey()))
                    .append(" <b>")
                    .append(Format.count(e.getValue()))
                    .append("</b></span> ");
        }
        html.append("<span class=\"kv\">peak <b>")
                .append(Format.count(peak(view.outstandingSeries)))
                .append("</b></span><span class=\"kv\">mean hold <b>")
                .append(Format.seconds(view.holdMeanSeconds))
                .append("</b></span></p>")
                .append(Charts.line(
                        "outstanding block references over the last " + Format.duration(view.historyMillis),
                        view.outstandingSeries,
                        4))
                .append("</section>");
    }

    private static double peak(List<ReadPathView.Point> points) {
        double peak = 0;
        for (ReadPathView.Point p : points) {
            peak = Math.max(peak, p.value);
        }
        return peak;
    }

    private static void gc(ReadPathView view, StringBuilder html) {
        html.append("<section id=\"gc\"><h2>GC pauses</h2><p><span class=\"kv\">paused <b>")
                .append(Format.seconds(view.gcPauseSecondsInHistory))
                .append("</b> in ")
                .append(Format.count(view.gcPausesInHistory))
                .append(" pauses over the last ")
                .append(Format.duration(view.historyMillis))
                .append("</span></p>")
                .append(Charts.bars(
                        "seconds paused per interval over the last " + Format.duration(view.historyMillis),
                        view.gcPauseSeries,
                        0.01))
                .append("</section>");
    }

    private static void buckets(ReadPathView view, StringBuilder html) {
        html.append("<section id=\"buckets\"><h2>Bucket occupancy</h2>");
        if (view.sizeClasses.isEmpty()) {
            html.append("<p class=\"muted\">No bucket cache seen.</p></section>");
            return;
        }
        html.append("<table><tr><th>size class</th><th>used / slots</th><th></th></tr>");
        int empty = 0;
        for (Sample.SizeClass c : view.sizeClasses) {
            double slots = c.usedSlots + c.freeSlots;
            if (slots == 0) {
                empty++; // a class with no bucket assigned yet: nothing to show
                continue;
            }
            String used = Format.count(c.usedSlots) + " / " + Format.count(slots);
            Row.start(html, "size-class")
                    .num("", Format.bytes(c.slotBytes))
                    .num("", used)
                    .markup(Charts.share(Format.bytes(c.slotBytes) + " slots used: " + used, c.usedSlots / slots))
                    .end();
        }
        html.append("</table>");
        if (empty > 0) {
            html.append("<p class=\"muted\">").append(empty).append(" size classes without slots not shown.</p>");
        }
        html.append("</section>");
    }

    private static final String STYLE =
            "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}"
                    + "header,footer{padding:8px 16px}header{background:#1d232a;color:#fff}header a{color:#9cf}"
                    + ".right{float:right}#status{margin-left:1em}main{padding:0 16px}"
                    + ".verdict{margin:12px 0;padding:8px 16px;border-radius:6px;border-left:8px solid}"
                    + ".verdict h1{font-size:20px;margin:4px 0}.verdict p{margin:4px 0}"
                    + ".ok{background:#e6f4ea;border-color:#1e8e3e}.warn{background:#fef7e0;border-color:#f29900}"
                    + ".bad{background:#fce8e6;border-color:#d93025}.idle{background:#eceff1;border-color:#80868b}"
                    + ".grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:12px}"
                    + "section{background:#fff;border-radius:6px;padding:4px 12px 10px}h2{font-size:15px;margin:8px 0}"
                    + "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:2px 6px;border-bottom:1px solid #eee}"
                    + ".num{text-align:right;white-space:nowrap}.name{font-family:ui-monospace,monospace;word-break:break-all}"
                    + ".muted{color:#5f6368}.kv{margin-right:1em}"
                    + "svg .line{fill:none;stroke:#1a73e8;stroke-width:1.5}svg .bar{fill:#d93025}svg .axis{stroke:#ccc}"
                    + "svg .track{fill:#eee}svg .fill{fill:#f29900}.chart{width:100%;max-width:560px}";
}
