package io.blockscope.agent.metrics;

import io.blockscope.agent.profile.PoolSpec;
import io.blockscope.agent.profile.ValueRef;
import io.blockscope.exporter.Log;
import java.util.List;

/**
 * The captured buffer allocators' own figures, summed over the live instances at scrape time (an
 * allocator that pools nothing adds zero buffers). A figure the profile does not name stays
 * absent; one whose read fails is logged once and left out of this scrape, never failing it.
 */
final class AllocatorPools {

    Long heapBytes;
    Long poolBytes;
    Long maxBuffers;
    Long capacityBytes;
    Long freeBuffers;
    Long inUseBuffers;
    /** Values left out of this read because their accessor threw (blockscope_agent_dropped_total). */
    int failures;

    static AllocatorPools read(PoolSpec spec, List<Object> allocators, Accessors accessors, String probe) {
        AllocatorPools out = new AllocatorPools();
        for (Object allocator : allocators) {
            Long heap = out.number(spec.heapBytes(), allocator, accessors, probe);
            Long pool = out.number(spec.poolBytes(), allocator, accessors, probe);
            Long max = out.number(spec.maxBuffers(), allocator, accessors, probe);
            Long size = out.number(spec.bufferSize(), allocator, accessors, probe);
            Long created = out.number(spec.createdBuffers(), allocator, accessors, probe);
            Long free = out.number(spec.freeBuffers(), allocator, accessors, probe);
            out.heapBytes = sum(out.heapBytes, heap);
            out.poolBytes = sum(out.poolBytes, pool);
            out.maxBuffers = sum(out.maxBuffers, max);
            out.capacityBytes = sum(out.capacityBytes, max == null || size == null ? null : max * size);
            out.freeBuffers = sum(out.freeBuffers, free);
            // created and free are two reads: a buffer taken in between must not make in-use negative
            out.inUseBuffers =
                    sum(out.inUseBuffers, created == null || free == null ? null : Math.max(0, created - free));
        }
        return out;
    }

    private static Long sum(Long sum, Long value) {
        if (value == null) {
            return sum;
        }
        return sum == null ? value : sum + value;
    }

    private Long number(ValueRef ref, Object allocator, Accessors accessors, String probe) {
        if (ref == null) {
            return null;
        }
        try {
            return accessors.number(ref, allocator);
        } catch (ReflectiveOperationException | RuntimeException e) {
            failures++;
            Throwable cause =
                    e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null ? e.getCause() : e;
            Log.warnOnce(
                    "pool:" + probe + ":" + ref,
                    "probe " + probe + " cannot read " + ref + " at scrape time; that allocator value is left out",
                    cause);
            return null;
        }
    }
}
