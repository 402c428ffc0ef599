package io.blockscope.agenttest.bench;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Copies;
import io.blockscope.agent.bootstrap.HeldBuffers;
import io.blockscope.agent.bootstrap.Instances;
import io.blockscope.agent.bootstrap.Sink;
import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.config.AgentOptions;
import io.blockscope.agent.record.CallUsers;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteResolver;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What each probe's advice costs on the hot path, probe by probe: the advice calls {@link Bridge}
 * directly, with the agent's real {@link Recorder} behind it (site resolution, checkout tracking,
 * site tables), so each benchmark is the advice's work without the ByteBuddy plumbing (which
 * inlines to the same static call). {@link #baseline} is the host's own work in every benchmark:
 * a fresh block object handed out (the example server makes one per checkout) and kept in a field,
 * so the identity hash the probes take is paid for a fresh object, as in a server.
 *
 * <p>{@code config} sets the agent's options: {@code off} (no sampling, returns not matched),
 * {@code defaults} (the agent's defaults: {@code leak.sample}, {@code leak.rate}, {@code leak.age},
 * {@code tracked}, {@code copy.sample}), {@code matched} (defaults,
 * plus returns matched against checkouts, as the HBase profile's {@code release()} probe does), and
 * {@code every} (every checkout and copy sampled: the cost of one sample). Every config but {@code
 * off} holds pool buffers with their take time, as the agent does for a profile with a pool (the
 * stuck-buffer count). The context benchmarks are the same in every config: the context probes
 * have no sampling. Run with {@code -t 1} and
 * {@code -t 2} to see what two threads bumping the same counters cost each other.
 *
 * <pre>
 * agent/jmh.sh ProbeCostBenchmark -prof gc -t 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ProbeCostBenchmark {

    private static final int TIER = 1;
    private static final int PROBE = 0;
    private static final int VALUE = 3;
    /** HBase's {@code TableName} and encoded region name, as the context probes read them. */
    private static final Object TABLE = "ns:orders";

    private static final Object REGION = "0f3c5d6e7a8b9c0d1e2f3a4b5c6d7e8f";
    /** An RPC call whose user the agent's reader finds by the hbase2 profile's path. */
    private static final Object CALL = new Call();

    /** HBase's {@code ServerCall}: the user is a field of the class, not of its interface. */
    static final class Call {
        final User user = new User();
    }

    /** HBase's {@code User}, whose short name is kept. */
    static final class User {
        private final String shortName = "alice";

        String getShortName() {
            return shortName;
        }
    }
    /**
     * The agent's own defaults, so that {@code defaults} follows them when they change (the port is
     * required by the parser; no endpoint is opened here).
     */
    private static final AgentConfig DEFAULTS = AgentOptions.parse("9404", Map.of(), Set.of());

    @Param({"off", "defaults", "matched", "every"})
    public String config;

    private boolean matched;

    /** A cache-like instance the occupancy probe sees on every lookup. */
    private final Object cache = new Object();

    /** Per-thread: where a reader keeps its block (the block escapes, as in a server). */
    @State(Scope.Thread)
    public static class Reader {
        Object held;
        /**
         * A pool's buffers: made once and lent in turn, so their identity hashes are taken once, as
         * a server's pool buffers' are (a fresh object's first identity hash costs more than a probe).
         */
        final Object[] pool = new Object[256];

        int next;

        public Reader() {
            for (int i = 0; i < pool.length; i++) {
                pool[i] = new Object();
                System.identityHashCode(pool[i]);
            }
        }

        Object lend() {
            Object buffer = pool[next];
            next = (next + 1) & (pool.length - 1);
            return buffer;
        }
    }

    @Setup
    public void install() {
        int leakSample;
        long copyBytes;
        int copyCount = 0;
        switch (config) {
            case "off":
                leakSample = 0;
                copyBytes = 0;
                break;
            case "defaults":
            case "matched":
                leakSample = DEFAULTS.leakSample();
                copyBytes = DEFAULTS.copySampleBytes();
                break;
            case "every":
                leakSample = 1;
                copyBytes = 0;
                copyCount = 1;
                break;
            default:
                throw new IllegalArgumentException(config);
        }
        SiteResolver sites = new SiteResolver(List.of("io.blockscope.agenttest.bench.", "org.openjdk.jmh."));
        Recorder recorder = new Recorder(
                sites,
                sites,
                DEFAULTS.tracked(),
                config.equals("every") ? 0 : DEFAULTS.leakRate(), // no limit for "every": the cost of each sample
                DEFAULTS.leakAge(),
                false,
                20,
                4,
                (tier, nanos) -> {},
                (checkout, reason) -> {});
        matched = config.equals("matched");
        Checkouts.matchReturns(matched ? 65536 : 0);
        Checkouts.holdBuffers(config.equals("off") ? null : new HeldBuffers(1 << 15));
        Context.configure(Context.DEFAULT_TABLES, Context.DEFAULT_USERS, new CallUsers("user.getShortName()"));
        Bridge.install(recorder, leakSample, copyCount, copyBytes);
    }

    @TearDown
    public void uninstall() {
        Bridge.install(Sink.NONE, 0, 0);
        Checkouts.matchReturns(0);
        Checkouts.holdBuffers(null);
        Context.configure(Context.DEFAULT_TABLES, Context.DEFAULT_USERS, Context.UserNames.NONE);
    }

    /** The host's work alone: a fresh block, kept while it is read. */
    @Benchmark
    public Object baseline(Reader reader) {
        Object block = new Object();
        reader.held = block;
        return block;
    }

    /** A hit and its return (the block-get and block-return probes; returns matched in {@code matched}). */
    @Benchmark
    public Object getAndReturn(Reader reader) {
        Object block = new Object();
        Checkouts.blockHit(TIER, true, true, block);
        reader.held = block;
        Checkouts.blockReturn(TIER, matched, block);
        return block;
    }

    /** A miss (block-get probe, null result). */
    @Benchmark
    public Object miss(Reader reader) {
        Object block = new Object();
        Checkouts.blockMiss(TIER, true);
        reader.held = block;
        return block;
    }

    /** A 64-byte copy to the heap (copy probe; site attribution when sampled). */
    @Benchmark
    public Object copy64(Reader reader) {
        Object block = new Object();
        Copies.copied(PROBE, VALUE, 64);
        reader.held = block;
        return block;
    }

    /** The occupancy probe's capture of the cache instance on a lookup. */
    @Benchmark
    public Object occupancyCapture(Reader reader) {
        Object block = new Object();
        Instances.instance(PROBE, cache);
        reader.held = block;
        return block;
    }

    /**
     * A receiver probe's enter and exit advice around a watched call (HBase's {@code filterRowKey}):
     * the thread's receiver slot fetched twice, two values saved, written and restored.
     */
    @Benchmark
    public Object receiverEnterExit(Reader reader) {
        Object block = new Object();
        Object[] slot = Copies.callSlot();
        Object previousReceiver = slot[0];
        Object previousMethod = slot[1];
        slot[0] = ProbeCostBenchmark.class;
        slot[1] = "filterRowKey";
        reader.held = block;
        slot = Copies.callSlot();
        slot[0] = previousReceiver;
        slot[1] = previousMethod;
        return block;
    }

    /**
     * A pool buffer taken and given back (the allocator probes): counted as a checkout and, unless
     * {@code off}, held with its take time and table until it comes back. The host's work here is a
     * buffer lent from the pool, not a fresh object: compare with {@code off}, not {@link #baseline}.
     */
    @Benchmark
    public Object bufferTakeAndGive(Reader reader) {
        Object buffer = reader.lend();
        Checkouts.bufferTake(TIER, true, buffer);
        reader.held = buffer;
        Checkouts.bufferReturn(TIER, false, buffer);
        return buffer;
    }

    /**
     * An RPC call's context (the {@code call} probe's enter and exit advice): the region the thread
     * had, the call's user read (by the agent's own reader) and looked up, then both put back.
     */
    @Benchmark
    public Object callContext(Reader reader) {
        Object block = new Object();
        Object region = Context.region();
        long saved = Context.callStart(CALL);
        reader.held = block;
        Context.restore(saved, region);
        return block;
    }

    /** A region operation's context ({@code region-start} and {@code region-end}): its table set, then put back. */
    @Benchmark
    public Object regionContext(Reader reader) {
        Object block = new Object();
        Context.regionStart(TABLE, REGION);
        reader.held = block;
        Context.regionEnd();
        return block;
    }
}
