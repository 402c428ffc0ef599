package io.blockscope.hbaseit.driver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * The exact-count scenario: blocks of four sizes in a real offheap BucketCache, read twice and given
 * back, five lookups of absent blocks, three blocks evicted while a reader still holds them.
 *
 * <p>Checkpoints: {@code cached} (all blocks written, nothing read), {@code holding} (reads done, three
 * references outstanding on evicted blocks whose slots are still in use), {@code released} (the three
 * given back, their slots free). Each reports the driver's own counts next to the cache's statistics.
 */
public final class ReferenceDriver {

    /** Buffer sizes (header included) and how many blocks of each: four different bucket size classes. */
    static final int[][] BLOCKS = {{3_000, 6}, {8_000, 4}, {30_000, 3}, {60_000, 2}};

    static final int READ_ROUNDS = 2;
    static final int ABSENT_LOOKUPS = 5;

    private final HBaseBlocks blocks = HBaseBlocks.detect();
    private final DriverConsole console = new DriverConsole();
    private long gets;
    private long hits;
    private long misses;
    private long returns;

    public static void main(String[] args) throws Exception {
        new ReferenceDriver().run();
    }

    private void run() throws Exception {
        try (StandaloneBucketCache bucket = new StandaloneBucketCache()) {
            BucketCache cache = bucket.cache();
            Map<BlockCacheKey, Integer> cached = cacheAll(bucket);
            console.checkpoint("cached", fields(bucket, 0));

            List<BlockCacheKey> toHold = firstOfEachSize(cached, 3);
            Map<BlockCacheKey, Cacheable> held = new LinkedHashMap<>();
            for (int round = 1; round <= READ_ROUNDS; round++) {
                for (BlockCacheKey key : cached.keySet()) {
                    Cacheable block = read(cache, key);
                    if (round == READ_ROUNDS && toHold.contains(key)) {
                        held.put(key, block);
                    } else {
                        giveBack(cache, key, block);
                    }
                }
            }
            for (int i = 0; i < ABSENT_LOOKUPS; i++) {
                read(cache, new BlockCacheKey("blockscope-absent", i));
            }
            for (BlockCacheKey key : held.keySet()) {
                cache.evictBlock(key);
            }
            console.checkpoint("holding", fields(bucket, held.size()));

            held.forEach((key, block) -> giveBack(cache, key, block));
            console.checkpoint("released", fields(bucket, 0));
        }
    }

    private Map<BlockCacheKey, Integer> cacheAll(StandaloneBucketCache bucket) throws InterruptedException {
        Map<BlockCacheKey, Integer> cached = new LinkedHashMap<>();
        long offset = 0;
        for (int[] sizeAndCount : BLOCKS) {
            for (int i = 0; i < sizeAndCount[1]; i++) {
                BlockCacheKey key = new BlockCacheKey("blockscope-hfile", offset);
                Cacheable block = blocks.newDataBlock(sizeAndCount[0], offset);
                bucket.cacheAndWait(key, block);
                blocks.dropCreatorReference(block);
                cached.put(key, sizeAndCount[0]);
                offset += sizeAndCount[0];
            }
        }
        return cached;
    }

    private Cacheable read(BucketCache cache, BlockCacheKey key) {
        gets++;
        Cacheable block = cache.getBlock(key, true, false, true);
        if (block == null) {
            misses++;
            return null;
        }
        hits++;
        int index = HBaseBlocks.Payload.HEADER_BYTES + 7;
        if (StandaloneBucketCache.byteAt(block, index) != HBaseBlocks.Payload.expected(key.getOffset(), index)) {
            throw new IllegalStateException("bucket cache returned wrong bytes for " + key);
        }
        return block;
    }

    private void giveBack(BucketCache cache, BlockCacheKey key, Cacheable block) {
        blocks.giveBack(cache, key, block);
        returns++;
    }

    private DriverConsole.Fields fields(StandaloneBucketCache bucket, int outstanding) {
        DriverConsole.Fields fields = new DriverConsole.Fields()
                .put("model", blocks.model())
                .put("driver.gets", gets)
                .put("driver.hits", hits)
                .put("driver.misses", misses)
                .put("driver.returns", returns)
                .put("driver.outstanding", outstanding);
        bucket.describe(fields);
        return fields;
    }

    private static List<BlockCacheKey> firstOfEachSize(Map<BlockCacheKey, Integer> cached, int sizes) {
        List<BlockCacheKey> result = new ArrayList<>();
        List<Integer> seen = new ArrayList<>();
        cached.forEach((key, size) -> {
            if (!seen.contains(size) && seen.size() < sizes) {
                seen.add(size);
                result.add(key);
            }
        });
        return result;
    }
}
