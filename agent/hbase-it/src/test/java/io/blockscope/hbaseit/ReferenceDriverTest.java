package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The premise of the agent tests, checked without the agent: the resolved HBase jars run a real
 * offheap BucketCache, and it behaves as the scenario expects (hits and misses counted, an evicted
 * block keeps its slot until its last reference comes back).
 */
class ReferenceDriverTest {

    /** Slot size to used slots after caching: 6 x 3000 B, 4 x 8000 B, 3 x 30000 B, 2 x 60000 B blocks. */
    static final Map<Long, Long> CACHED = Map.of(5120L, 6L, 9216L, 4L, 33792L, 3L, 66560L, 2L);
    /** After the three blocks evicted while referenced were given back. */
    static final Map<Long, Long> RELEASED = Map.of(5120L, 5L, 9216L, 3L, 33792L, 2L, 66560L, 2L);

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void evictedBlocksKeepTheirSlotsUntilTheLastReferenceIsGivenBack(HBaseInstall hbase) {
        try (DriverJvm jvm = DriverJvm.of("ReferenceDriver").hbase(hbase).start()) {
            Checkpoint cached = jvm.await("cached");
            assertEquals(expectedModel(hbase), cached.text("model"), "block ownership model of " + hbase);
            assertEquals(15, cached.number("cache.blocks"));
            assertEquals(CACHED, usedSlots(cached), "slots in use after caching");
            assertEquals(14, cached.slots().size(), "default bucket size classes (4 KB..512 KB, each +1 KB)");
            jvm.proceed();

            Checkpoint holding = jvm.await("holding");
            assertEquals(30, holding.number("cache.hits"));
            assertEquals(5, holding.number("cache.misses"));
            assertEquals(CACHED, usedSlots(holding), "evicted but still referenced blocks keep their slots");
            jvm.proceed();

            Checkpoint released = jvm.await("released");
            assertEquals(RELEASED, usedSlots(released), "the last give-back frees the evicted blocks' slots");
            assertEquals(totalSlots(cached), totalSlots(released), "slots per size class stay constant");
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    static String expectedModel(HBaseInstall hbase) {
        return hbase.refCounted() ? "refcount" : "returnBlock";
    }

    /** Size classes with slots in use, and how many. */
    static Map<Long, Long> usedSlots(Checkpoint checkpoint) {
        Map<Long, Long> used = new TreeMap<>();
        checkpoint.slots().forEach((size, usedFree) -> {
            if (usedFree[0] > 0) {
                used.put(size, usedFree[0]);
            }
        });
        return used;
    }

    private static Map<Long, Long> totalSlots(Checkpoint checkpoint) {
        Map<Long, Long> total = new TreeMap<>();
        checkpoint.slots().forEach((size, usedFree) -> total.put(size, usedFree[0] + usedFree[1]));
        return total;
    }
}
