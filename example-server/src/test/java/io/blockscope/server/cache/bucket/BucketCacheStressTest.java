package io.blockscope.server.cache.bucket;

import static io.blockscope.server.cache.TestBlocks.intact;
import static io.blockscope.server.cache.TestBlocks.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.ConcurrentRun;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.TestBlocks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Readers check every block they get against its tag and CRC32C while other threads insert and
 * evict in a cache far too small for the key space, so slots are freed and reused all the time.
 * Some readers hold blocks across many operations, so evictions hit referenced blocks. What is
 * asserted holds for any interleaving: no corrupt read, and exact books once the threads stop.
 */
class BucketCacheStressTest {

    private static final int K = 1024;
    private static final int[] CLASSES = {5 * K, 9 * K, 17 * K, 33 * K, 65 * K};
    /** 24 buckets of 260 KB: about 6 MB, so bucket 15 straddles the first 4 MB buffer boundary. */
    private static final long CAPACITY = 24 * 4L * 65 * K;

    private static final int KEYS = 400; // about 13 MB of blocks
    private static final int READERS = 3;
    private static final Duration RUN = Duration.ofMillis(2500);

    @TempDir
    Path dir;

    enum Setup {
        OFFHEAP_ZERO_COPY,
        HEAP_COPY,
        FILE
    }

    private BucketCache newCache(Setup setup) {
        return switch (setup) {
            case OFFHEAP_ZERO_COPY ->
                new BucketCache(ByteBufferIOEngine.offheap(CAPACITY), CLASSES, ReadPathMode.ZERO_COPY);
            case HEAP_COPY -> new BucketCache(ByteBufferIOEngine.heap(CAPACITY), CLASSES, ReadPathMode.COPY);
            case FILE ->
                new BucketCache(
                        FileIOEngine.open(dir.resolve("stress.cache"), CAPACITY, true),
                        CLASSES,
                        ReadPathMode.ZERO_COPY);
        };
    }

    private static int lengthOf(int id) {
        return TestBlocks.MIN_LENGTH + new SplittableRandom(id).nextInt(65 * K - TestBlocks.MIN_LENGTH + 1);
    }

    private record Held(int id, Block block) {}

    /**
     * Keeps a checked-out block for a later return. If keeping it fails (an Error allocating the
     * record, which the run's thread catches), the block goes back at once instead of staying pinned.
     */
    private static void hold(BucketCache cache, ArrayDeque<Held> held, int id, Block block) {
        boolean kept = false;
        try {
            held.addLast(new Held(id, block));
            kept = true;
        } finally {
            if (!kept) {
                cache.returnBlock(key(id), block);
            }
        }
    }

    /** Checks a held block's bytes and gives it back, the return in finally. */
    private static void returnChecked(BucketCache cache, Held h, LongAdder corrupt) {
        try {
            if (!intact(h.block(), h.id())) {
                corrupt.increment();
            }
        } finally {
            cache.returnBlock(key(h.id()), h.block());
        }
    }

    /** Returns every block left, each return in the finally of the one before: one that fails skips none. */
    private static void returnAll(BucketCache cache, Iterator<Held> left, LongAdder corrupt) {
        if (left.hasNext()) {
            try {
                returnChecked(cache, left.next(), corrupt);
            } finally {
                returnAll(cache, left, corrupt);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void readersNeverSeeACorruptBlockAndTheBooksBalance(Setup setup) throws Exception {
        BucketCache cache = newCache(setup);
        Block[] blocks = new Block[KEYS];
        for (int id = 0; id < KEYS; id++) {
            blocks[id] = TestBlocks.dataBlock(id, lengthOf(id));
        }
        LongAdder corrupt = new LongAdder();
        LongAdder hits = new LongAdder();
        LongAdder straddling = new LongAdder();
        List<ArrayDeque<Held>> heldByReader = new ArrayList<>();
        ConcurrentRun run = new ConcurrentRun();
        for (int r = 0; r < READERS; r++) {
            ArrayDeque<Held> held = new ArrayDeque<>();
            heldByReader.add(held);
            run.repeat("reader-" + r, r, random -> {
                int id = random.nextInt(KEYS);
                Block block = cache.getBlock(key(id), true, false, true);
                if (block != null) {
                    // held before it is looked at: a check that throws cannot keep it from being returned
                    hold(cache, held, id, block);
                    hits.increment();
                    straddling.add(block.data().bufferCount() > 1 ? 1 : 0);
                    if (!intact(block, id)) {
                        corrupt.increment();
                    }
                }
                // keep a few blocks checked out across other threads' evictions and inserts
                while (held.size() > 1 + random.nextInt(4)) {
                    returnChecked(cache, held.removeFirst(), corrupt);
                }
            });
        }
        for (int w = 0; w < 2; w++) {
            // mostly inserts, so the cache stays full and inserts evict; some explicit evictions
            run.repeat("writer-" + w, 100 + w, random -> {
                int id = random.nextInt(KEYS);
                int action = random.nextInt(100);
                if (action < 85) {
                    cache.cacheBlock(key(id), blocks[id], action < 5);
                } else if (action < 99) {
                    cache.evictBlock(key(id));
                } else if (random.nextInt(50) == 0) {
                    cache.evictBlocksByFile(key(id).fileName());
                }
            });
        }
        try {
            run.runFor(RUN);
        } finally {
            // every block still held goes back, also when a thread failed and runFor rethrows
            returnAll(cache, heldByReader.stream().flatMap(ArrayDeque::stream).iterator(), corrupt);
        }

        String summary = setup + ": " + hits.sum() + " hits (" + straddling.sum() + " across two buffers), "
                + cache.getStats().evictedBlockCount() + " evicted, " + cache.allocationFailures()
                + " allocation failures, "
                + cache;
        assertEquals(0, corrupt.sum(), "corrupt reads; " + summary);
        assertTrue(hits.sum() > 0, summary);
        assertTrue(cache.getStats().evictedBlockCount() > 0, summary);
        assertEquals(0, cache.outstandingReferences(), summary);
        assertEquals(0, cache.retiredBlockCount(), summary);

        BucketAllocator allocator = cache.allocator();
        long slotBytes = 0;
        long wasted = 0;
        long cached = 0;
        for (int id = 0; id < KEYS; id++) {
            if (cache.containsBlock(key(id))) {
                int slot = allocator.slotSize(allocator.sizeClassOf(lengthOf(id)));
                slotBytes += slot;
                wasted += slot - lengthOf(id);
                cached++;
                assertEquals(0, cache.referenceCount(key(id)));
                Block block = cache.getBlock(key(id), false, false, false);
                boolean intact;
                try {
                    intact = intact(block, id);
                } finally {
                    cache.returnBlock(key(id), block);
                }
                assertTrue(intact, "cached block " + id + " at the end; " + summary);
            }
        }
        assertEquals(cached, cache.blockCount(), summary);
        assertEquals(slotBytes, cache.usedSize(), "used bytes = slot sizes of the cached blocks; " + summary);
        assertEquals(cached, allocator.usedSlots(), summary);
        assertEquals(wasted, cache.wastedBytes(), summary);
        long usedInClasses = 0;
        for (BucketAllocator.IndexStatistics s : cache.indexStatistics()) {
            usedInClasses += s.usedBytes();
        }
        assertEquals(slotBytes, usedInClasses);
        cache.shutdown();
        assertEquals(0, cache.usedSize());
        assertEquals(allocator.bucketCount(), allocator.freeBucketCount(), "every bucket back in the pool");
    }
}
