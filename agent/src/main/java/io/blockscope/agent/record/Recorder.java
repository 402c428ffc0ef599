package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.bootstrap.Sink;
import io.blockscope.agent.profile.Component;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The agent's side of the bridge: everything the hot path samples lands here. Sampled checkouts
 * are tracked for hold time and leaks, sampled copies are attributed to a call site and recorded as
 * JFR events, captured instances are remembered weakly.
 */
public final class Recorder extends Sink {

    /** Where hold times go (the hold-time histogram, by tier index). */
    public interface HoldTimes {
        void record(int tier, long nanos);
    }

    /** Where leaks go; called at most once per leaked checkout. */
    public interface Leaks {
        void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason);
    }

    /** Columns of {@link #copySites()}. */
    public static final int CALLS = 0;

    public static final int BYTES = 1;

    /**
     * Buffer takes tracked a second at most while they are sampled densely (at least leak.rate): a
     * capture is 30-100 us, so at most 0.5-1% of a core, and only while buffers are held for seconds.
     */
    static final int DENSE_TAKES_PER_SECOND = 100;

    private final SiteResolver sites;
    private final SiteResolver fallbackSiteResolver;
    private final CheckoutTracker tracker;
    private final SiteTable copySites;
    /** Sampled copy bytes by site and the table and user whose work made them ({@link CopySiteOwners}). */
    private final SiteTable copySiteOwners;
    /** Heap fallbacks by site: columns {@link #fallbackColumn}(reason, CALLS or BYTES). */
    private final SiteTable fallbackSites;

    private final InstanceRegistry instances;
    private final boolean copyEvents;
    private final long leakAgeNanos;
    /** Bounds the sampled checkouts tracked a second: each costs a stack capture. */
    private final RateBudget trackBudget;
    /**
     * Bounds the buffer takes tracked a second while every take is sampled ({@code
     * Checkouts.denseBufferSites}): higher than {@code leak.rate}, so that a flush's burst of takes
     * is tracked whole and the leaked one among them is not left to chance.
     */
    private final RateBudget denseBudget;
    /** Sampled checkouts the budget refused: not watched for leaks, so counted as dropped. */
    private final LongAdder overBudget = new LongAdder();
    /**
     * Tiers that are pools of buffers, not caches: their checkouts are named by the allocator's
     * caller (the code that took the buffer), not by the reader a block checkout is named after.
     */
    private volatile boolean[] bufferTiers = new boolean[0];

    public Recorder(
            SiteResolver sites,
            int trackedCheckouts,
            Duration leakAge,
            boolean copyEvents,
            int siteLabels,
            int probes,
            HoldTimes holdTimes,
            Leaks leaks) {
        this(sites, sites, trackedCheckouts, 0, leakAge, copyEvents, siteLabels, probes, holdTimes, leaks);
    }

    /**
     * @param fallbackSites finds the site of a heap fallback: the first frame outside the allocator
     *     (the profile's cell and cache machinery is a caller worth naming there)
     * @param trackedPerSecond sampled checkouts tracked a second at most (bursts of one second's
     *     worth); 0: every sampled checkout is tracked
     */
    public Recorder(
            SiteResolver sites,
            SiteResolver fallbackSites,
            int trackedCheckouts,
            int trackedPerSecond,
            Duration leakAge,
            boolean copyEvents,
            int siteLabels,
            int probes,
            HoldTimes holdTimes,
            Leaks leaks) {
        this.sites = sites;
        this.fallbackSiteResolver = fallbackSites;
        this.fallbackSites = new SiteTable(siteLabels, 2 * Counters.FALLBACK_REASONS);
        this.tracker = new CheckoutTracker(trackedCheckouts, new CheckoutTracker.Listener() {
            @Override
            public void returned(CheckoutTracker.Checkout checkout, long heldNanos) {
                holdTimes.record(checkout.tier(), heldNanos);
            }

            @Override
            public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
                leaks.leaked(checkout, reason);
            }
        });
        this.copySites = new SiteTable(siteLabels, 2);
        this.copySiteOwners = new SiteTable(siteLabels, 1);
        this.instances = new InstanceRegistry(probes);
        this.copyEvents = copyEvents;
        this.leakAgeNanos = leakAge.toNanos();
        this.trackBudget = new RateBudget(trackedPerSecond, System.nanoTime());
        this.denseBudget = new RateBudget(
                trackedPerSecond == 0 ? 0 : Math.max(trackedPerSecond, DENSE_TAKES_PER_SECOND), System.nanoTime());
    }

    @Override
    public void checkout(int tier, Object block) {
        tracker.pollCollected();
        long now = System.nanoTime();
        boolean buffer = tier < bufferTiers.length && bufferTiers[tier];
        boolean dense = buffer && Checkouts.denseBufferSites();
        if (!(dense ? denseBudget : trackBudget).tryAcquire(now)) {
            overBudget.increment(); // over this second's budget: not tracked, and no stack captured
            return;
        }
        // on the taking thread: its table and region are the ones whose work took the block or buffer
        CheckoutTracker.Origin site = buffer ? fallbackSiteResolver.capture() : sites.capture();
        tracker.track(block, tier, now, site, Context.table(), Context.region());
    }

    /** Marks the tiers (by index) that are buffer pools; set once, before any probe is installed. */
    public void bufferTiers(boolean[] tiers) {
        this.bufferTiers = tiers.clone();
    }

    @Override
    public void returned(int tier, Object block) {
        tracker.returned(block, System::nanoTime);
    }

    @Override
    public void copy(int probe, int component, long bytes, long calls, long estimatedBytes) {
        String site = sites.site();
        // on the copying thread: whose work it is, as the context probes set it
        int table = Context.table();
        Object region = Context.region();
        copySites.addNoted(
                site,
                region == null ? null : new Where(BYTES, estimatedBytes, table, region, System.currentTimeMillis()),
                calls,
                estimatedBytes);
        copySiteOwners.add(CopySiteOwners.key(site, table, Context.user()), estimatedBytes);
        if (copyEvents) {
            CopyToHeapEvent event = new CopyToHeapEvent();
            if (event.isEnabled()) {
                event.component = Component.byIndex(component).label();
                event.bytes = bytes;
                event.site = site;
                event.samplingRate = (int) Math.min(Integer.MAX_VALUE, calls);
                event.commit();
            }
        }
    }

    @Override
    public void heapFallback(int probe, int reason, long bytes, long calls, long estimatedBytes) {
        long[] amounts = new long[2 * Counters.FALLBACK_REASONS];
        amounts[fallbackColumn(reason, CALLS)] = calls;
        amounts[fallbackColumn(reason, BYTES)] = estimatedBytes;
        fallbackSites.add(fallbackSiteResolver.site(), amounts);
    }

    /** The column of {@link #fallbackSites()} for a reason index and {@link #CALLS} or {@link #BYTES}. */
    public static int fallbackColumn(int reason, int callsOrBytes) {
        return reason * 2 + callsOrBytes;
    }

    /** Sampled heap fallbacks by call site, scaled by the sampling rate. */
    public SiteTable fallbackSites() {
        return fallbackSites;
    }

    @Override
    public void instance(int probe, Object instance) {
        instances.add(probe, instance);
    }

    /** Reports collected and over-age checkouts; called at scrape time. */
    public void checkLeaks() {
        tracker.pollCollected();
        tracker.expire(System.nanoTime(), leakAgeNanos);
    }

    /** Sampled checkouts not watched for leaks because the tracker's table was full. */
    public long untrackedCheckouts() {
        return tracker.dropped();
    }

    /** Sampled checkouts not watched for leaks because {@code leak.rate}'s budget for the second was spent. */
    public long overBudgetCheckouts() {
        return overBudget.sum();
    }

    public SiteTable copySites() {
        return copySites;
    }

    /** Keys of {@link CopySiteOwners#key}; one column, the bytes. */
    public SiteTable copySiteOwners() {
        return copySiteOwners;
    }

    public InstanceRegistry instances() {
        return instances;
    }
}
