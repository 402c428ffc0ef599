package io.blockscope.server.region;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.storefile.BlockSource;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every block the region reads comes through here: index, bloom and data blocks alike, so a
 * combined cache can keep the meta blocks in L1 and the data in L2.
 *
 * <p>It also keeps the books on references: each block handed out is counted until it is given
 * back, and {@link #outstanding()} is what {@code /status} reports and what the tests assert is zero
 * after every request.
 */
public final class CachedBlockSource implements BlockSource {

    private final BlockCache cache;
    /** The store files it reads misses from, by their cache key file name. */
    private final Map<String, StoreFileReader> files = new ConcurrentHashMap<>();

    private final LongAdder outstanding = new LongAdder();
    /** Data block lookups and those read from a store file: the data hit ratio, whatever tier holds meta blocks. */
    private final LongAdder dataRequests = new LongAdder();

    private final LongAdder dataFileReads = new LongAdder();
    /** Blocks read from disk that the cache did not take (every data block in the meta-only deploy). */
    private final Set<Block> uncached = ConcurrentHashMap.newKeySet();

    public CachedBlockSource(BlockCache cache) {
        this.cache = cache;
    }

    public BlockCache cache() {
        return cache;
    }

    /** Lets this source read misses of {@code reader}'s blocks. */
    void register(StoreFileReader reader) {
        files.put(reader.name(), reader);
    }

    void unregister(StoreFileReader reader) {
        files.remove(reader.name());
        cache.evictBlocksByFile(reader.name());
    }

    /**
     * The block for {@code key}, with one reference the caller must give back through
     * {@link #returnBlock}. On a miss the block is read from its file, offered to the cache and then
     * fetched from it again, so that what the reader holds is the cache's own (pinned) copy whenever
     * the cache took it.
     */
    @Override
    public Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException {
        Block block = cache.getBlock(key, true, false, true);
        boolean data = expectedType == BlockType.DATA;
        if (data) {
            dataRequests.increment();
        }
        if (block == null) {
            if (data) {
                dataFileReads.increment();
            }
            StoreFileReader file = files.get(key.fileName());
            if (file == null) {
                throw new IllegalArgumentException("no open store file " + key.fileName() + " for block " + key);
            }
            Block loaded = file.readBlock(key.offset(), expectedType);
            cache.cacheBlock(key, loaded, false);
            block = cache.getBlock(key, true, true, false);
            if (block == null) {
                uncached.add(loaded);
                block = loaded;
            }
        }
        outstanding.increment();
        return block;
    }

    /** Gives back a block from {@link #getBlock}. */
    @Override
    public void returnBlock(BlockCacheKey key, Block block) {
        outstanding.decrement();
        if (!uncached.isEmpty() && uncached.remove(block)) {
            return;
        }
        cache.returnBlock(key, block);
    }

    /** Data block lookups so far. */
    public long dataRequests() {
        return dataRequests.sum();
    }

    /** Data blocks read from a store file so far (cache misses; every data lookup of meta-only). */
    public long dataFileReads() {
        return dataFileReads.sum();
    }

    /** Blocks handed out and not yet given back. */
    public long outstanding() {
        return outstanding.sum();
    }
}
