package io.blockscope.agent.metrics;

import static io.blockscope.agent.metrics.Points.counter;
import static io.blockscope.agent.metrics.Points.gauge;

import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.agent.profile.Component;
import io.blockscope.agent.profile.DesignedCopy;
import io.blockscope.agent.profile.FallbackReason;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.blockscope.agent.record.StuckBuffers;
import io.blockscope.agent.record.StuckCheckouts;
import io.blockscope.exporter.Log;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every agent series of docs/metrics.md, built at scrape time from the bridge's striped counters,
 * the site tables and the captured caches. It only reads: the lazy work a scrape drives (leak
 * checks, advice-error log lines, retiring ended threads' counter rows) is {@link
 * ScrapeHousekeeping}'s, which is what the registry holds and which runs it before each collection.
 */
public final class AgentMetrics implements MultiCollector, Recorder.HoldTimes {

    private final Profile profile;
    private final List<String> tiers;
    private final ProbeStatus status;
    private final String version;
    private final LeakReport leaks;
    private final Accessors accessors = new Accessors();
    private final DroppedData dropped = new DroppedData();
    private final DistributionDataPoint[] holdByTier;
    private final boolean hasAllocatorProbe;
    private volatile Recorder recorder;
    /** Pool buffers out past leak.age; null for a profile without a pool. */
    private volatile StuckBuffers stuckBuffers;
    /** Checkouts untouched past leak.age; null for a profile that does not match returns. */
    private volatile StuckCheckouts stuckCheckouts;

    public AgentMetrics(
            Profile profile, ProbeStatus status, String version, LeakReport leaks, PrometheusRegistry registry) {
        this.profile = profile;
        this.tiers = profile.tiers();
        this.hasAllocatorProbe = !profile.allocatorTypes().isEmpty();
        this.status = status;
        this.version = version;
        this.leaks = leaks;
        Histogram hold = Histogram.builder()
                .name("blockscope_block_hold_seconds")
                .help("Time from getBlock to returnBlock, for sampled checkouts.")
                .unit(Unit.SECONDS)
                .labelNames("tier")
                .classicUpperBounds(0.00001, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30)
                .register(registry);
        holdByTier = new DistributionDataPoint[tiers.size()];
        for (int i = 0; i < tiers.size(); i++) {
            if (!leaks.bufferTier(i)) { // a pool's buffers are tracked for leaks, not for hold times
                holdByTier[i] = hold.labelValues(tiers.get(i));
            }
        }
        registry.register(new ScrapeHousekeeping(this, new AdviceErrorLog(status)));
    }

    /** Set once the recorder exists (it needs this object as its hold-time sink). */
    public void attach(Recorder recorder) {
        this.recorder = recorder;
    }

    /** Set once, for a profile with a pool, before any probe is installed. */
    public void attach(StuckBuffers stuck) {
        this.stuckBuffers = stuck;
    }

    /** Set once, for a profile that matches returns to checkouts, before any probe is installed. */
    public void attach(StuckCheckouts stuck) {
        this.stuckCheckouts = stuck;
    }

    /** Checkouts untouched past leak.age, or null for a profile that does not match returns. */
    StuckCheckouts stuckCheckouts() {
        return stuckCheckouts;
    }

    /** Pool buffers out past leak.age, or null for a profile without a pool. */
    StuckBuffers stuckBuffers() {
        return stuckBuffers;
    }

    /** The recorder, or null before {@link #attach}. */
    Recorder recorder() {
        return recorder;
    }

    @Override
    public void record(int tier, long nanos) {
        DistributionDataPoint hold = holdByTier[tier];
        if (hold != null) {
            hold.observe(nanos / 1e9);
        }
    }

    @Override
    public MetricSnapshots collect() {
        Recorder r = recorder;
        List<MetricSnapshot> out = new ArrayList<>();
        blockCache(out);
        copies(out, r);
        if (profile.tracksContext()) {
            CopyOwners.collect(out);
            CopyOwners.sites(out, r);
            LeakOwners.collect(out, leaks);
        }
        heapFallbacks(out, r);
        if (profile.tracksContext() && hasAllocatorProbe) {
            FallbackOwners.collect(out);
        }
        if (r != null) {
            occupancy(out, r);
            allocatorPools(out, r);
        }
        health(out);
        out.add(dropped.snapshot(r, leaks, stuckBuffers));
        return new MetricSnapshots(out);
    }

    private void blockCache(List<MetricSnapshot> out) {
        CounterSnapshot.Builder gets = CounterSnapshot.builder()
                .name("blockscope_block_cache_gets")
                .help("getBlock calls, each logical lookup counted once per tier.");
        CounterSnapshot.Builder returns = CounterSnapshot.builder()
                .name("blockscope_block_cache_returns")
                .help("returnBlock calls (or release() on reference-counted blocks).");
        GaugeSnapshot.Builder outstanding = GaugeSnapshot.builder()
                .name("blockscope_block_refs_outstanding")
                .help("Checkouts (hits the reader must give back) not yet returned. Must come back to zero when idle.");
        StuckCheckouts stuckNow = stuckCheckouts;
        GaugeSnapshot.Builder stuck = GaugeSnapshot.builder()
                .name("blockscope_block_refs_stuck")
                .help("Of those, checkouts of blocks no reader has taken or given back for leak.age, every"
                        + " checkout counted (not sampled).");
        for (int t = 0; t < tiers.size(); t++) {
            if (leaks.bufferTier(t)) {
                continue; // a pool, not a cache: its buffers in use are blockscope_allocator_pool_buffers
            }
            String tier = tiers.get(t);
            // returns before checkouts: every return follows its checkout, so this order never shows
            // a negative count
            long returned = Counters.RETURNS[t].sum();
            long checkoutHits = Counters.HITS[t].sum();
            long checkouts = checkoutHits + Counters.UNCOUNTED_CHECKOUTS[t].sum();
            long hits = checkoutHits + Counters.PLAIN_HITS[t].sum();
            gets.dataPoint(counter(hits, "tier", tier, "result", "hit"));
            gets.dataPoint(counter(Counters.MISSES[t].sum(), "tier", tier, "result", "miss"));
            returns.dataPoint(counter(returned, "tier", tier));
            outstanding.dataPoint(gauge(checkouts - returned, "tier", tier));
            if (stuckNow != null) {
                stuck.dataPoint(gauge(stuckNow.stuck(t), "tier", tier));
            }
        }
        out.add(gets.build());
        out.add(returns.build());
        out.add(outstanding.build());
        if (stuckNow != null) {
            out.add(stuck.build());
        }
        long untracked = Counters.CHECKOUT_TABLE_FULL.sum();
        if (untracked > 0) {
            Log.warnOnce(
                    "checkout-table-full",
                    untracked + " hits were counted as plain hits (not checkouts, not in"
                            + " blockscope_block_refs_outstanding) because the checkout table was full around their slot;"
                            + " counted in blockscope_agent_dropped_total{what=\"checkout_untracked\"}",
                    null);
        }

        CounterSnapshot.Builder leaked = CounterSnapshot.builder()
                .name("blockscope_block_leaks")
                .help("Sampled block checkouts (kind checkout) and pool buffers (kind buffer) garbage collected"
                        + " without a return (gc) or held longer than leak.age (age), by acquiring site.");
        for (SiteTable.Row row : leaks.sites().snapshot()) {
            for (LeakReport.Kind kind : LeakReport.Kind.values()) {
                long gc = row.values()[LeakReport.column(kind, LeakReport.GC)];
                long age = row.values()[LeakReport.column(kind, LeakReport.AGE)];
                if (gc + age == 0) {
                    continue; // a site shows the kinds that leaked there, each with both reasons
                }
                // each site's last leak with a region, as an exemplar of its kind's and reason's series
                Object last = row.note();
                leaked.dataPoint(counter(
                        gc,
                        Exemplars.of(last, LeakReport.column(kind, LeakReport.GC)),
                        "site",
                        row.site(),
                        "kind",
                        kind.label(),
                        "reason",
                        "gc"));
                leaked.dataPoint(counter(
                        age,
                        Exemplars.of(last, LeakReport.column(kind, LeakReport.AGE)),
                        "site",
                        row.site(),
                        "kind",
                        kind.label(),
                        "reason",
                        "age"));
            }
        }
        out.add(leaked.build());
    }

    private void copies(List<MetricSnapshot> out, Recorder r) {
        CallsAndBytes copies = new CallsAndBytes(
                "blockscope_copy_to_heap",
                "Copies of buffer-backed cells' components onto the heap, whatever API made them,"
                        + " and whole-block copies (block).",
                "blockscope_copy_to_heap_bytes",
                "Bytes those copies moved onto the heap.");
        for (Component c : Component.values()) {
            copies.point(
                    Counters.COPIES[c.ordinal()].sum(), Counters.COPY_BYTES[c.ordinal()].sum(), "component", c.label());
        }
        copies.addTo(out);

        CallsAndBytes designed = new CallsAndBytes(
                "blockscope_copy_by_design",
                "Copies of buffer-backed cells onto the heap that the server makes by design, by operation.",
                "blockscope_copy_by_design_bytes",
                "Bytes of those copies.");
        for (DesignedCopy d : DesignedCopy.values()) {
            designed.point(
                    Counters.DESIGNED_COPIES[d.ordinal()].sum(),
                    Counters.DESIGNED_COPY_BYTES[d.ordinal()].sum(),
                    "operation",
                    d.label());
        }
        designed.addTo(out);

        CallsAndBytes sites = new CallsAndBytes(
                "blockscope_copy_site_calls",
                "Sampled copies by the first frame outside the cell/cache classes, scaled by the sampling rate.",
                "blockscope_copy_site_bytes",
                "Bytes of sampled copies by call site, scaled by the sampling rate.");
        if (r != null) {
            for (SiteTable.Row row : r.copySites().snapshot()) {
                // the region and table of the site's last sampled copy, as an exemplar of its bytes
                sites.point(
                        row.values()[Recorder.CALLS],
                        row.values()[Recorder.BYTES],
                        Exemplars.of(row.note(), Recorder.BYTES),
                        "site",
                        row.site());
            }
        }
        sites.addTo(out);
    }

    private void heapFallbacks(List<MetricSnapshot> out, Recorder r) {
        if (!hasAllocatorProbe) {
            return; // a profile without a buffer allocator has no fallbacks to report, not zero of them
        }
        CallsAndBytes fallbacks = new CallsAndBytes(
                "blockscope_allocator_heap_fallbacks",
                "Buffer allocations a pooling allocator served from the heap, by reason.",
                "blockscope_allocator_heap_fallback_bytes",
                "Bytes of those heap allocations, by reason.");
        for (FallbackReason reason : FallbackReason.values()) {
            fallbacks.point(
                    Counters.HEAP_FALLBACKS[reason.index()].sum(),
                    Counters.HEAP_FALLBACK_BYTES[reason.index()].sum(),
                    "reason",
                    reason.label());
        }
        fallbacks.addTo(out);

        CallsAndBytes sites = new CallsAndBytes(
                "blockscope_allocator_heap_fallback_site_calls",
                "Sampled heap fallbacks by the first frame outside the allocator and reason, scaled by the"
                        + " sampling rate.",
                "blockscope_allocator_heap_fallback_site_bytes",
                "Bytes of sampled heap fallbacks by call site and reason, scaled by the sampling rate.");
        if (r != null) {
            for (SiteTable.Row row : r.fallbackSites().snapshot()) {
                for (FallbackReason reason : FallbackReason.values()) {
                    long n = row.values()[Recorder.fallbackColumn(reason.index(), Recorder.CALLS)];
                    if (n != 0) { // a site shows the reasons it had, not three series per site
                        sites.point(
                                n,
                                row.values()[Recorder.fallbackColumn(reason.index(), Recorder.BYTES)],
                                "site",
                                row.site(),
                                "reason",
                                reason.label());
                    }
                }
            }
        }
        sites.addTo(out);
    }

    private void allocatorPools(List<MetricSnapshot> out, Recorder r) {
        for (int p = 0; p < profile.probes().size(); p++) {
            if (!(profile.probes().get(p) instanceof ProbeSpec.HeapFallback)) {
                continue;
            }
            ProbeSpec.HeapFallback probe =
                    (ProbeSpec.HeapFallback) profile.probes().get(p);
            List<Object> allocators = r.instances().live(p);
            if (allocators.isEmpty()) {
                continue;
            }
            AllocatorPools pools = AllocatorPools.read(probe.pool(), allocators, accessors, probe.name());
            dropped.occupancyValuesLeftOut(pools.failures);
            if (pools.heapBytes != null || pools.poolBytes != null) {
                CounterSnapshot.Builder own = CounterSnapshot.builder()
                        .name("blockscope_allocator_bytes")
                        .help("Bytes the buffer allocators handed out, from the heap or their pool, as the server's"
                                + " own counters say (read at scrape time).")
                        .unit(Unit.BYTES);
                if (pools.heapBytes != null) {
                    own.dataPoint(counter(pools.heapBytes, "source", "heap"));
                }
                if (pools.poolBytes != null) {
                    own.dataPoint(counter(pools.poolBytes, "source", "pool"));
                }
                out.add(own.build());
            }
            if (pools.freeBuffers != null || pools.inUseBuffers != null) {
                GaugeSnapshot.Builder buffers = GaugeSnapshot.builder()
                        .name("blockscope_allocator_pool_buffers")
                        .help("Buffers the pools have created, by state: free (back in the pool) or in_use.");
                if (pools.freeBuffers != null) {
                    buffers.dataPoint(gauge(pools.freeBuffers, "state", "free"));
                }
                if (pools.inUseBuffers != null) {
                    buffers.dataPoint(gauge(pools.inUseBuffers, "state", "in_use"));
                }
                out.add(buffers.build());
            }
            StuckBuffers stuck = stuckBuffers;
            if (stuck != null) {
                single(
                        out,
                        (long) stuck.stuck(),
                        "blockscope_allocator_pool_buffers_stuck",
                        "Buffers taken from the pools longer than leak.age ago and not given back, every take"
                                + " counted (not sampled).");
                if (profile.tracksContext()) {
                    LeakOwners.stuckBuffers(out, stuck.stuckByTable());
                }
            }
            single(
                    out,
                    pools.maxBuffers,
                    "blockscope_allocator_pool_buffers_max",
                    "The most buffers the pools will create; beyond, allocations fall back to the heap.");
            single(
                    out,
                    pools.capacityBytes,
                    "blockscope_allocator_pool_capacity_bytes",
                    "Bytes of the pools' buffers once all are created (most buffers times buffer size).");
            return; // one allocator probe per profile is exported; more would clash on names
        }
    }

    private void occupancy(List<MetricSnapshot> out, Recorder r) {
        for (int p = 0; p < profile.probes().size(); p++) {
            if (!(profile.probes().get(p) instanceof ProbeSpec.Occupancy)) {
                continue;
            }
            ProbeSpec.Occupancy probe = (ProbeSpec.Occupancy) profile.probes().get(p);
            List<Object> caches = r.instances().live(p);
            if (caches.isEmpty()) {
                continue;
            }
            Occupancy o = Occupancy.read(probe.occupancy(), caches, accessors, probe.name());
            dropped.occupancyValuesLeftOut(o.failures);
            if (!o.sizeClasses.isEmpty()) {
                GaugeSnapshot.Builder slots = GaugeSnapshot.builder()
                        .name("blockscope_bucket_slots")
                        .help("Slots per block-size class; size_class is the slot size in bytes.");
                GaugeSnapshot.Builder bytes = GaugeSnapshot.builder()
                        .name("blockscope_bucket_bytes")
                        .help("Bytes of the slots per block-size class.")
                        .unit(Unit.BYTES);
                for (Map.Entry<Long, Occupancy.SizeClass> e : o.sizeClasses.entrySet()) {
                    String size = Long.toString(e.getKey());
                    slots.dataPoint(gauge(e.getValue().usedSlots, "size_class", size, "state", "used"));
                    slots.dataPoint(gauge(e.getValue().freeSlots, "size_class", size, "state", "free"));
                    bytes.dataPoint(gauge(e.getValue().usedBytes, "size_class", size, "state", "used"));
                    bytes.dataPoint(gauge(e.getValue().freeBytes, "size_class", size, "state", "free"));
                }
                out.add(slots.build());
                out.add(bytes.build());
            }
            single(out, o.capacity, "blockscope_bucket_cache_capacity_bytes", "Bytes the bucket cache manages.");
            single(out, o.used, "blockscope_bucket_cache_used_bytes", "Bytes held by cached blocks (slot sizes).");
            single(out, o.wasted, "blockscope_bucket_cache_wasted_bytes", "Slot bytes not used by the blocks in them.");
            if (o.allocationFailures != null) {
                out.add(CounterSnapshot.builder()
                        .name("blockscope_bucket_cache_allocation_failures")
                        .help("Blocks that could not be cached because no slot was free after eviction.")
                        .dataPoint(counter(o.allocationFailures))
                        .build());
            }
            if (!o.readPathModes.isEmpty()) {
                GaugeSnapshot.Builder mode = GaugeSnapshot.builder()
                        .name("blockscope_read_path_mode")
                        .help("The server's read-path mode, as read from its cache.");
                o.readPathModes.forEach(m -> mode.dataPoint(gauge(1, "mode", m)));
                out.add(mode.build());
            }
            return; // one occupancy probe per profile is exported; more would clash on names
        }
    }

    private void health(List<MetricSnapshot> out) {
        out.add(InfoSnapshot.builder()
                .name("blockscope_agent")
                .help("The agent is attached and which target profile it uses.")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                        .labels(Labels.of("profile", profile.name(), "version", version))
                        .build())
                .build());
        GaugeSnapshot.Builder enabled = GaugeSnapshot.builder()
                .name("blockscope_agent_probe_enabled")
                .help("1 when a probe of the profile found its target classes, 0 when it was skipped;"
                        + " absent while an alternative probe does its job.");
        CounterSnapshot.Builder errors = CounterSnapshot.builder()
                .name("blockscope_agent_advice_errors")
                .help("Exceptions thrown inside advice, suppressed so the host goes on.");
        for (int p = 0; p < status.names().size(); p++) {
            String probe = status.names().get(p);
            if (!status.covered(p)) {
                // a probe whose alternative is on is not a gap: left out, so it never reads as skipped
                enabled.dataPoint(gauge(status.enabled(p) ? 1 : 0, "probe", probe));
            }
            errors.dataPoint(counter(Counters.ADVICE_ERRORS[p].sum(), "probe", probe));
        }
        out.add(enabled.build());
        out.add(errors.build());
    }

    private static void single(List<MetricSnapshot> out, Long value, String name, String help) {
        if (value != null) {
            out.add(GaugeSnapshot.builder()
                    .name(name)
                    .help(help)
                    .dataPoint(gauge(value))
                    .build());
        }
    }
}
