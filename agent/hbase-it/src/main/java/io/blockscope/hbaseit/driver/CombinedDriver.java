package io.blockscope.hbaseit.driver;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;

/**
 * A RegionServer's default offheap deploy: a CombinedBlockCache with index blocks in an on-heap
 * LruBlockCache (l1) and data blocks in an offheap BucketCache (l2), used the way HFileReaderImpl
 * uses it. Data blocks are cached as a reader caches what it read from a store file (from 2.3 on:
 * a pooled offheap buffer the reader releases once cached). Blocks are read through the combined
 * cache and given back like an HFile scanner does: only blocks in shared memory, with returnBlock
 * before 2.3, with release() after.
 *
 * <p>Checkpoint {@code read} reports the driver's counts per tier (hits, misses, references taken
 * and given back) next to HBase's own statistics of the combined cache and of each tier.
 */
public final class CombinedDriver {

    static final int INDEX_BLOCKS = 4;
    static final int INDEX_READS = 3;
    static final int DATA_BLOCKS = 6;
    static final int DATA_READS = 2;
    /** Larger than hbase.server.allocator.minimal.allocate.size, so 2.3+ reads use the offheap pool. */
    static final int DATA_BYTES = 30_000;

    static final int ABSENT_DATA_LOOKUPS = 3;

    private final HBaseBlocks blocks = HBaseBlocks.detect();
    private final DriverConsole console = new DriverConsole();

    public static void main(String[] args) throws Exception {
        new CombinedDriver().run();
    }

    private void run() throws Exception {
        try (StandaloneBucketCache bucket = new StandaloneBucketCache()) {
            LruBlockCache lru = new LruBlockCache(16L << 20, 64 << 10);
            BlockCache combined = blocks.combine(lru, bucket.cache());

            List<BlockCacheKey> index = new ArrayList<>();
            for (int i = 0; i < INDEX_BLOCKS; i++) {
                BlockCacheKey key = new BlockCacheKey("blockscope-hfile", i * 4_096L, true, BlockType.LEAF_INDEX);
                Cacheable block = blocks.newBlock(BlockType.LEAF_INDEX, 2_000, key.getOffset());
                combined.cacheBlock(key, block);
                blocks.dropCreatorReference(block);
                index.add(key);
            }
            List<BlockCacheKey> data = new ArrayList<>();
            for (int i = 0; i < DATA_BLOCKS; i++) {
                BlockCacheKey key =
                        new BlockCacheKey("blockscope-hfile", (1L << 20) + i * 65_536L, true, BlockType.DATA);
                Cacheable block = blocks.readFromDisk(DATA_BYTES, key.getOffset());
                combined.cacheBlock(key, block);
                bucket.awaitWritten(key);
                blocks.dropCreatorReference(block);
                data.add(key);
            }

            Counts l1 = new Counts();
            Counts l2 = new Counts();
            for (int round = 0; round < INDEX_READS; round++) {
                for (BlockCacheKey key : index) {
                    read(combined, key, l1);
                }
            }
            for (int round = 0; round < DATA_READS; round++) {
                for (BlockCacheKey key : data) {
                    read(combined, key, l2);
                }
            }
            for (int i = 0; i < ABSENT_DATA_LOOKUPS; i++) {
                read(combined, new BlockCacheKey("blockscope-absent", i, true, BlockType.DATA), l2);
            }

            DriverConsole.Fields fields = new DriverConsole.Fields().put("model", blocks.model());
            l1.describe("driver.l1.", fields);
            l2.describe("driver.l2.", fields);
            fields.put("hbase.combined.hits", combined.getStats().getHitCount())
                    .put("hbase.combined.misses", combined.getStats().getMissCount())
                    .put("hbase.l1.hits", lru.getStats().getHitCount())
                    .put("hbase.l1.misses", lru.getStats().getMissCount())
                    .put("hbase.l2.hits", bucket.cache().getStats().getHitCount())
                    .put("hbase.l2.misses", bucket.cache().getStats().getMissCount());
            bucket.describe(fields);
            console.checkpoint("read", fields);
            lru.shutdown();
        }
    }

    /** One lookup as HFileReaderImpl makes it, then the scanner's give-back once it is done. */
    private void read(BlockCache combined, BlockCacheKey key, Counts tier) {
        Cacheable block = combined.getBlock(key, true, false, true);
        if (block == null) {
            tier.misses++;
            return;
        }
        tier.hits++;
        if (blocks.takesReference(block)) {
            tier.references++;
        }
        if (blocks.model().equals("refcount") || blocks.takesReference(block)) {
            blocks.giveBack(combined, key, block);
            if (blocks.takesReference(block)) {
                tier.returns++;
            }
        }
    }

    /** What the driver did at one tier. */
    private static final class Counts {
        long hits;
        long misses;
        long references;
        long returns;

        void describe(String prefix, DriverConsole.Fields fields) {
            fields.put(prefix + "hits", hits)
                    .put(prefix + "misses", misses)
                    .put(prefix + "references", references)
                    .put(prefix + "returns", returns)
                    .put(prefix + "outstanding", references - returns);
        }
    }
}
