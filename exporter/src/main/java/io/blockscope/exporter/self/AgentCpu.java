package io.blockscope.exporter.self;

import io.blockscope.exporter.Log;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CPU time the agent's own threads spent, by part, read from {@link ThreadMXBean} at scrape
 * time only: nothing runs on the host's threads. Exact (thread CPU time, not sampling), so it adds
 * up on a noisy machine where A/B runs cannot resolve 1%.
 *
 * <p>Parts: {@code scrape}, measured around each {@code /metrics} request on the thread serving
 * it; {@code endpoint}, the rest of the endpoint's threads (accepting, parsing, TLS, the live
 * page's requests); {@code jfr}, the thread consuming the GC event stream; {@code jfr_jdk}, JFR's
 * own JDK threads (shared with any other recording in the JVM); {@code live_page}, the live page's
 * sampler; {@code startup}, the agent's start work, reported once; {@code other}, any other thread
 * whose name starts {@code blockscope-}. A thread's time counts up to the last scrape that saw it
 * alive, so a part never decreases.
 */
public final class AgentCpu implements MultiCollector {

    /** The label values, in export order. */
    static final String[] PARTS = {"scrape", "endpoint", "jfr", "jfr_jdk", "live_page", "startup", "other"};

    private static final int SCRAPE = 0;
    private static final int ENDPOINT = 1;
    private static final int JFR = 2;
    private static final int JFR_JDK = 3;
    private static final int LIVE_PAGE = 4;
    private static final int STARTUP = 5;
    private static final int OTHER = 6;
    /** Not an agent thread. */
    private static final int NONE = -1;

    private final ThreadMXBean threads;
    private final boolean supported;
    private final AtomicLong scrapeNanos = new AtomicLong();
    private final AtomicLong startupNanos = new AtomicLong();
    /** On a thread serving a scrape: its CPU time when the scrape began. */
    private final ThreadLocal<Long> scrapeStart = new ThreadLocal<>();
    /** The id of the thread consuming the agent's JFR stream, or -1. */
    private volatile long jfrThread = -1;
    /** Per thread id: its part, or {@link #NONE}; names are read once per thread. */
    private final Map<Long, Integer> partOf = new HashMap<>();
    /** Per live agent thread: its CPU time at the last scrape. */
    private final Map<Long, Long> lastSeen = new HashMap<>();
    /** Per part: the time of its threads that have ended. */
    private final long[] ended = new long[PARTS.length];
    /** The endpoint part as last exported, so that it never goes back. */
    private long endpointExported;

    public AgentCpu() {
        this(ManagementFactory.getThreadMXBean());
    }

    AgentCpu(ThreadMXBean threads) {
        this.threads = threads;
        boolean on;
        try {
            on = threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        } catch (UnsupportedOperationException e) {
            on = false;
        }
        this.supported = on;
        if (!on) {
            Log.warnOnce(
                    "thread-cpu",
                    "this JVM does not measure thread CPU time (or it is turned off):"
                            + " blockscope_agent_cpu_seconds_total is left out",
                    null);
        }
    }

    /**
     * A scrape begins on the calling thread: its CPU time in nanoseconds, to pass to {@link
     * #scrapeDone}, or -1 when not measured.
     */
    public long scrapeStarted() {
        if (!supported) {
            return -1;
        }
        long now = threads.getCurrentThreadCpuTime();
        scrapeStart.set(now);
        return now;
    }

    /** Adds the calling thread's CPU since {@code start} (from {@link #scrapeStarted}) to the scrapes. */
    public void scrapeDone(long start) {
        scrapeStart.remove();
        if (start >= 0) {
            long now = threads.getCurrentThreadCpuTime();
            if (now > start) {
                scrapeNanos.addAndGet(now - start);
            }
        }
    }

    /**
     * The thread consuming the agent's JFR stream, known by identity: a host using the exporter's
     * GC monitoring itself (the example server does) has a thread of the same name. Null: none.
     */
    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
    public void jfrThread(Thread thread) {
        if (thread != null) {
            jfrThread = thread.getId();
        }
    }

    /** Adds the agent's start work, measured on the threads that ran it. */
    public void startup(long nanos) {
        if (nanos > 0) {
            startupNanos.addAndGet(nanos);
        }
    }

    @Override
    public synchronized MetricSnapshots collect() {
        if (!supported) {
            return new MetricSnapshots();
        }
        long[] nanos = new long[PARTS.length];
        long[] ids = threads.getAllThreadIds();
        classifyNew(ids);
        Map<Long, Long> alive = new HashMap<>();
        long jfr = jfrThread;
        if (partOf.containsKey(jfr)) {
            partOf.put(jfr, JFR);
        }
        for (long id : ids) {
            int part = partOf.getOrDefault(id, NONE);
            if (part == NONE) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(id);
            if (cpu >= 0) {
                alive.put(id, cpu);
            }
        }
        for (Map.Entry<Long, Long> e : lastSeen.entrySet()) {
            if (!alive.containsKey(e.getKey())) {
                ended[partOf.get(e.getKey())] += e.getValue();
            }
        }
        partOf.keySet().retainAll(idsOf(ids));
        lastSeen.clear();
        lastSeen.putAll(alive);
        for (Map.Entry<Long, Long> e : alive.entrySet()) {
            nanos[partOf.get(e.getKey())] += e.getValue();
        }
        for (int p = 0; p < PARTS.length; p++) {
            nanos[p] += ended[p];
        }
        // scrapes run on the endpoint's threads: the endpoint part is what is left of theirs
        long scrape = scrapeNanos.get();
        Long started = scrapeStart.get(); // this collection's own scrape, not added yet
        long running = started == null ? 0 : threads.getCurrentThreadCpuTime() - started;
        endpointExported = Math.max(endpointExported, nanos[ENDPOINT] - scrape - running);
        nanos[SCRAPE] = scrape;
        nanos[ENDPOINT] = endpointExported;
        nanos[STARTUP] = startupNanos.get();
        CounterSnapshot.Builder cpu = CounterSnapshot.builder()
                .name("blockscope_agent_cpu_seconds")
                .help("CPU time of the agent's own threads, by part; the probes' time on the host's threads is"
                        + " not in here.")
                .unit(Unit.SECONDS);
        for (int p = 0; p < PARTS.length; p++) {
            cpu.dataPoint(CounterDataPointSnapshot.builder()
                    .value(nanos[p] / 1e9)
                    .labels(Labels.of("part", PARTS[p]))
                    .build());
        }
        return new MetricSnapshots(cpu.build());
    }

    private void classifyNew(long[] ids) {
        List<Long> fresh = new ArrayList<>();
        for (long id : ids) {
            if (!partOf.containsKey(id)) {
                fresh.add(id);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        long[] query = new long[fresh.size()];
        for (int i = 0; i < query.length; i++) {
            query[i] = fresh.get(i);
        }
        ThreadInfo[] infos = threads.getThreadInfo(query, 0);
        for (int i = 0; i < query.length; i++) {
            if (infos[i] != null) { // null: ended since getAllThreadIds
                partOf.put(query[i], part(infos[i].getThreadName()));
            }
        }
    }

    private static Set<Long> idsOf(long[] ids) {
        Set<Long> list = new HashSet<>(ids.length * 2);
        for (long id : ids) {
            list.add(id);
        }
        return list;
    }

    /** The part a thread of this name works for; names as the exporter and the JDK set them. */
    static int part(String name) {
        if (name.startsWith("blockscope-exporter")) { // Jetty's pool, Netty's io and worker groups
            return ENDPOINT;
        }
        switch (name) {
            case "JFR Recorder Thread":
            case "JFR Periodic Tasks":
                return JFR_JDK;
            case "blockscope-live-page":
                return LIVE_PAGE;
            case "blockscope-jfr-gc": // the agent's is known by identity, see jfrThread
            case "blockscope-start": // reported by its own measurement, see startup
                return NONE;
            default:
                return name.startsWith("blockscope-") ? OTHER : NONE;
        }
    }
}
