package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.record.CheckoutTracker;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.blockscope.agent.record.Where;
import io.blockscope.exporter.Log;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leaks by acquiring site, kind and reason, and by the table the taking thread worked for, and one
 * log line for the first leak of each kind, with its table and the stack that took the block or
 * buffer: enough to find the reader that forgot its {@code returnBlock}, or the code that took a
 * pool buffer and never released it, and whose work it was.
 */
public final class LeakReport implements Recorder.Leaks {

    /** What leaked: a cache's block checkout, or a buffer taken from a pool (label {@code kind}). */
    public enum Kind {
        CHECKOUT("checkout"),
        BUFFER("buffer");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    static final int GC = 0;
    static final int AGE = 1;

    private final SiteTable sites;
    private final List<String> tiers;
    private final boolean[] bufferTiers;
    private final Duration leakAge;
    private final AtomicBoolean[] logged = {new AtomicBoolean(), new AtomicBoolean()};
    /**
     * Leaks by table id, kind and reason ({@link #tableColumn}); grown to the tables' width on a
     * leak (leaks are reported at scrape time or on a sampled checkout, never on the hot path).
     */
    private long[] byTable = new long[0];

    public LeakReport(int siteLabels, List<String> tiers, Duration leakAge) {
        this(siteLabels, tiers, Set.of(), leakAge);
    }

    /** @param bufferTiers the tiers that are buffer pools (their leaks are {@code kind="buffer"}) */
    public LeakReport(int siteLabels, List<String> tiers, Set<String> bufferTiers, Duration leakAge) {
        this.sites = new SiteTable(siteLabels, 2 * Kind.values().length);
        this.tiers = tiers;
        this.bufferTiers = new boolean[tiers.size()];
        for (int t = 0; t < tiers.size(); t++) {
            this.bufferTiers[t] = bufferTiers.contains(tiers.get(t));
        }
        this.leakAge = leakAge;
    }

    /** Whether tier {@code tier} is a buffer pool. */
    public boolean bufferTier(int tier) {
        return tier >= 0 && tier < bufferTiers.length && bufferTiers[tier];
    }

    /** The index of {@link #sites()}' column for a kind and a reason ({@link #GC} or {@link #AGE}). */
    static int column(Kind kind, int reason) {
        return kind.ordinal() * 2 + reason;
    }

    /** The index of a table's column of {@link #leaksByTable()} for a kind and a reason. */
    static int tableColumn(int table, Kind kind, int reason) {
        return table * 2 * Kind.values().length + column(kind, reason);
    }

    /** Leaks so far by table id, kind and reason ({@link #tableColumn}); a copy. */
    synchronized long[] leaksByTable() {
        return byTable.clone();
    }

    private synchronized void countTable(int table, int column) {
        int i = table * 2 * Kind.values().length + column;
        if (i >= byTable.length) {
            int width = Math.max(table + 1, Context.tables().width());
            byTable = Arrays.copyOf(byTable, width * 2 * Kind.values().length);
        }
        byTable[i]++;
    }

    @Override
    public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
        Kind kind = bufferTier(checkout.tier()) ? Kind.BUFFER : Kind.CHECKOUT;
        long[] amounts = new long[2 * Kind.values().length];
        int column = column(kind, reason == CheckoutTracker.Reason.GC ? GC : AGE);
        amounts[column] = 1;
        Object region = checkout.region();
        sites.addNoted(
                checkout.site(),
                region == null ? null : new Where(column, 1, checkout.table(), region, System.currentTimeMillis()),
                amounts);
        countTable(checkout.table(), column);
        // The first leak of each kind is logged, with the stack that took the block or buffer.
        if (!logged[kind.ordinal()].compareAndSet(false, true)) {
            return;
        }
        StackTraceElement[] stack = checkout.stack();
        StringBuilder message = new StringBuilder(
                        kind == Kind.BUFFER ? "leak: a buffer taken from " : "leak: a block checked out from ")
                .append(tiers.get(checkout.tier()))
                .append(" at ")
                .append(checkout.site())
                .append(tableNote(checkout.table(), checkout.region()))
                .append(
                        reason == CheckoutTracker.Reason.GC
                                ? kind == Kind.BUFFER
                                        ? " was garbage collected without being given back to its pool"
                                        : " was garbage collected without being returned"
                                : " was not returned within leak.age=" + leakAge.toMillis() + "ms")
                .append(" (see blockscope_block_leaks_total{kind=\"" + kind.label() + "\"} for all leaks by site).");
        if (stack.length > 0) {
            message.append(" Acquired at:");
            for (StackTraceElement frame : stack) {
                message.append(" <- ").append(frame);
            }
        }
        Log.warn(message.toString());
    }

    /**
     * " for table ns:t, region R" when the taking thread worked for a table (the region when the
     * profile names one); nothing outside tables.
     */
    static String tableNote(int table, Object region) {
        if (table == 0) {
            return "";
        }
        String label = CopyOwners.tableLabel(Context.tables(), table);
        if (label == null) {
            return "";
        }
        return region == null ? " for table " + label : " for table " + label + ", region " + region;
    }

    SiteTable sites() {
        return sites;
    }
}
