package io.blockscope.agent.metrics;

import io.blockscope.agent.record.CheckoutTracker;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.blockscope.exporter.Log;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leaks by acquiring site, kind and reason, and one log line for the first leak of each kind, with
 * the stack that took the block or buffer: enough to find the reader that forgot its
 * {@code returnBlock}, or the code that took a pool buffer and never released it.
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

    @Override
    public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
        Kind kind = bufferTier(checkout.tier()) ? Kind.BUFFER : Kind.CHECKOUT;
        long[] amounts = new long[2 * Kind.values().length];
        amounts[column(kind, reason == CheckoutTracker.Reason.GC ? GC : AGE)] = 1;
        sites.add(checkout.site(), amounts);
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

    SiteTable sites() {
        return sites;
    }
}
