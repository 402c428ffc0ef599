package io.blockscope.server.region;

import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.bucket.BucketAllocator;

/**
 * Cache sizes that hold a whole table, for the {@code auto} size settings: the seeds measure with
 * every block in cache, and a fixed default (1 GB of direct memory) would not even start under a
 * small {@code -Xmx}, which also caps direct memory.
 */
public final class CacheSizing {

    /** Store file block header bytes (type, length, checksum): cached blocks are payloads only. */
    private static final int BLOCK_HEADER = 9;

    private static final long MIN_L2 = 64L << 20;
    /** Spare buckets: each block-size class in use needs whole buckets of its own. */
    private static final int SPARE_BUCKETS = 16;

    private CacheSizing() {}

    /** What the tables of a data directory hold: data blocks and their bytes on disk. */
    public record Footprint(long dataBlocks, long dataBytes) {}

    /**
     * An L2 size for the tables' data blocks: each block is charged the slot of the size class that
     * fits an average block, plus 15% for blocks that need the next class up (random and zipfian
     * value sizes make blocks uneven) and some spare buckets. PE warns when the table did not fit.
     */
    public static long l2For(Footprint tables, int[] slotSizes) {
        long blocks = tables.dataBlocks();
        long payload = tables.dataBytes() - blocks * BLOCK_HEADER;
        long bucket = BucketAllocator.bucketSizeFor(slotSizes);
        if (blocks == 0) {
            return Math.max(MIN_L2, 2 * bucket);
        }
        long average = (payload + blocks - 1) / blocks;
        long slot = slotSizes[slotSizes.length - 1];
        for (int size : slotSizes) {
            if (size >= average) {
                slot = size;
                break;
            }
        }
        long bytes = (long) Math.ceil(blocks * slot * 1.15) + SPARE_BUCKETS * bucket;
        return Math.max(MIN_L2, (bytes + bucket - 1) / bucket * bucket);
    }

    /** An L1 size: the default for combined deploys (meta blocks only), the whole table for {@code lru}. */
    public static long l1For(Footprint tables, boolean holdsData) {
        if (!holdsData) {
            return CacheConfig.DEFAULT_L1_SIZE;
        }
        long bytes = tables.dataBytes() + tables.dataBlocks() * 256;
        return Math.max(CacheConfig.DEFAULT_L1_SIZE, (long) (bytes * 1.25) + (16L << 20));
    }
}
