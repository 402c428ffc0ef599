package io.blockscope.server.region;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The blocks a read holds because cells it handed out point into them: HBase's "shipped" rule.
 * A block joins the lease only when a cell from it was returned; blocks a read merely passed
 * through (filtered rows, index and bloom lookups) go back to the cache at once.
 *
 * <p>Filled by one thread; released once, from any thread (typically Jetty's, when the response has
 * been written or has failed). The release is guarded so a second call does nothing.
 */
final class BlockLease {

    private final CachedBlockSource source;
    private BlockCacheKey[] keys = new BlockCacheKey[4];
    private Block[] blocks = new Block[4];
    private int size;
    private final AtomicBoolean released = new AtomicBoolean();

    BlockLease(CachedBlockSource source) {
        this.source = source;
    }

    /** Takes over the reference the caller holds on {@code block}. */
    void hold(BlockCacheKey key, Block block) {
        if (released.get()) {
            // Never keep a reference nobody will give back.
            source.returnBlock(key, block);
            throw new IllegalStateException("lease already released");
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            blocks = Arrays.copyOf(blocks, size * 2);
        }
        keys[size] = key;
        blocks[size] = block;
        size++;
    }

    int size() {
        return released.get() ? 0 : size;
    }

    void release() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        for (int i = 0; i < size; i++) {
            source.returnBlock(keys[i], blocks[i]);
            keys[i] = null;
            blocks[i] = null;
        }
    }
}
