package io.blockscope.agent.metrics;

import io.blockscope.agent.record.CheckoutTracker;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.blockscope.exporter.Log;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leaks by acquiring site and reason, and the one log line for the first leak, with the stack that
 * checked the block out: enough to find the reader that forgot its {@code returnBlock}.
 */
public final class LeakReport implements Recorder.Leaks {

    static final int GC = 0;
    static final int AGE = 1;

    private final SiteTable sites;
    private final List<String> tiers;
    private final Duration leakAge;
    private final AtomicBoolean logged = new AtomicBoolean();
    private final AtomicBoolean loggedWithStack = new AtomicBoolean();

    public LeakReport(int siteLabels, List<String> tiers, Duration leakAge) {
        this.sites = new SiteTable(siteLabels, 2);
        this.tiers = tiers;
        this.leakAge = leakAge;
    }

    @Override
    public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
        sites.add(
                checkout.site(),
                reason == CheckoutTracker.Reason.GC ? 1 : 0,
                reason == CheckoutTracker.Reason.AGE ? 1 : 0);
        // The first leak is logged; if its checkout kept no stack (most keep only their site), the
        // first one that did is logged too: at most two lines, ever.
        StackTraceElement[] stack = checkout.stack();
        boolean first = logged.compareAndSet(false, true);
        boolean firstWithStack = stack.length > 0 && loggedWithStack.compareAndSet(false, true);
        if (!first && !firstWithStack) {
            return;
        }
        StringBuilder message = new StringBuilder("leak: a block checked out from ")
                .append(tiers.get(checkout.tier()))
                .append(" at ")
                .append(checkout.site())
                .append(
                        reason == CheckoutTracker.Reason.GC
                                ? " was garbage collected without being returned"
                                : " was not returned within leak.age=" + leakAge.toMillis() + "ms")
                .append(" (see blockscope_block_leaks_total for all leaks by site).");
        if (stack.length == 0) {
            message.append(" Its stack was not kept (1 in ")
                    .append(Recorder.STACK_EVERY)
                    .append(" tracked checkouts keeps one); the first leak with a stack will be logged too.");
        } else {
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
