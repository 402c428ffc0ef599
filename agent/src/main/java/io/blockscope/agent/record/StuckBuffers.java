package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.HeldBuffers;
import io.blockscope.exporter.Log;
import java.time.Duration;

/**
 * Pool buffers out longer than {@code leak.age}, counted exactly at each scrape from {@link
 * HeldBuffers}, and what follows from them. A stuck buffer has no site unless its take happened to
 * be sampled, so once buffers have been out longer than {@link #SUSPECT_AGE} (a pool buffer serves
 * one request: milliseconds), and for {@link #DENSE_FOR} after that count last rose, every new take
 * is sampled (each capture still within {@code leak.rate}) and the next buffer that leaks the same
 * way is named by the code that took it. Suspicion comes before {@code leak.age} because a leak
 * can drain the pool within one {@code leak.age}, after which no take is left to sample. A leak
 * that goes on is named within {@code leak.age} of the next take; one that recurs rarely (once
 * per flush) at its next occurrence within the hour; a one-off leak is counted and alerted on,
 * never named. Sampling more changes only which sites are named, never a count.
 */
public final class StuckBuffers {

    /** How long takes stay densely sampled after the stuck count last rose. */
    static final Duration DENSE_FOR = Duration.ofHours(1);
    /** Out this long, a buffer is suspect: its successors' takes are worth a site each. */
    static final Duration SUSPECT_AGE = Duration.ofSeconds(5);

    private final HeldBuffers held;
    private final long leakAgeNanos;
    private final long suspectAgeNanos;
    private int stuck;
    /** {@link #stuck} by the table id the taking thread worked for ({@code Context.tables()}). */
    private int[] stuckByTable = new int[0];

    private int suspect;
    private long denseUntil;
    private boolean dense;

    public StuckBuffers(HeldBuffers held, Duration leakAge) {
        this.held = held;
        this.leakAgeNanos = leakAge.toNanos();
        this.suspectAgeNanos = Math.min(leakAgeNanos, SUSPECT_AGE.toNanos());
    }

    /** Counts the stuck buffers now and switches dense sampling of takes; called at scrape time. */
    public synchronized void check(long nowNanos) {
        int[] byTable = new int[Context.tables().width()];
        stuck = held.olderThan(nowNanos, leakAgeNanos, byTable);
        stuckByTable = byTable;
        int suspectNow = held.olderThan(nowNanos, suspectAgeNanos);
        if (suspectNow > suspect) {
            denseUntil = nowNanos + DENSE_FOR.toNanos();
        }
        suspect = suspectNow;
        boolean wasDense = dense;
        dense = suspectNow > 0 && nowNanos - denseUntil < 0;
        if (dense != wasDense) {
            Checkouts.denseBufferSites(dense);
            if (dense && Checkouts.checkoutSample() > 0) {
                Log.warnOnce(
                        "dense-buffer-sites",
                        suspectNow + " pool buffers have been out of their pool longer than "
                                + suspectAgeNanos / 1_000_000 + " ms: every new take's site is captured (within"
                                + " leak.rate) until none has been held that long for "
                                + DENSE_FOR.toMinutes() + " minutes, so a buffer that is never given back is"
                                + " named by the code that took it (blockscope_block_leaks_total{kind=\"buffer\"})",
                        null);
            }
        }
    }

    /** Buffers out longer than {@code leak.age} at the last {@link #check}. */
    public synchronized int stuck() {
        return stuck;
    }

    /** {@link #stuck()} by table id ({@code Context.tables()}), at the last {@link #check}; a copy. */
    public synchronized int[] stuckByTable() {
        return stuckByTable.clone();
    }

    /** Takes not held because the table was full around their slot. */
    public long untracked() {
        return held.untracked();
    }
}
