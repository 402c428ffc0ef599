package io.blockscope.agent.bootstrap;

import jdk.internal.vm.annotation.DontInline;

/**
 * Instances the probes capture for scrape-time reads (caches, allocators) and the heap fallbacks
 * of buffer allocators: new instances and sampled fallbacks go to the {@link Sink}, out of line
 * (see {@link Bridge}).
 */
public final class Instances {

    /**
     * Identity hashes of the last two instances each probe reported (slots 2p and 2p+1), so repeats
     * skip the sink even where two instances take turns (a pooled allocator and the shared heap one).
     */
    private static final int[] lastInstance = new int[Counters.MAX_PROBES * 2];

    private Instances() {}

    /** An instance seen by probe {@code probe}; repeats of the last one cost an identity hash. */
    public static void instance(int probe, Object instance) {
        if (instance == null) {
            return;
        }
        int hash = System.identityHashCode(instance);
        int slot = probe * 2;
        if (lastInstance[slot] != hash && lastInstance[slot + 1] != hash) {
            lastInstance[slot + 1] = lastInstance[slot];
            lastInstance[slot] = hash;
            newInstance(probe, instance);
        }
    }

    @DontInline
    private static void newInstance(int probe, Object instance) {
        Bridge.sink.instance(probe, instance);
    }

    /**
     * A buffer allocator ({@code allocator}, remembered for scrape-time reads) served {@code bytes}
     * bytes from the heap. Why: a non-pooling allocator ({@code pooled} false) has no pool; a pooling
     * one sends requests below its minimal pooled size to the heap by design (a zero-byte request is
     * one of those); anything else it would have pooled, so its pool had no buffer left. Attributed
     * to a call site like copies, with the same sampler.
     */
    public static void heapFallback(int probe, long bytes, boolean pooled, long minPooledSize, Object allocator) {
        int reason = !pooled
                ? Counters.FALLBACK_POOL_DISABLED
                : bytes == 0 || bytes < minPooledSize
                        ? Counters.FALLBACK_BELOW_MIN_SIZE
                        : Counters.FALLBACK_POOL_EXHAUSTED;
        CounterRows.addFallback(
                Counters.HEAP_FALLBACKS[reason].column(), Counters.HEAP_FALLBACK_BYTES[reason].column(), bytes, reason);
        instance(probe, allocator);
        ByteSampler sampler = Bridge.copySampler;
        long calls = sampler.draw(bytes);
        if (calls != 0) {
            sampledFallback(probe, reason, bytes, calls, sampler.estimatedBytes(bytes, calls));
        }
    }

    @DontInline
    private static void sampledFallback(int probe, int reason, long bytes, long calls, long estimatedBytes) {
        Bridge.sink.heapFallback(probe, reason, bytes, calls, estimatedBytes);
    }
}
