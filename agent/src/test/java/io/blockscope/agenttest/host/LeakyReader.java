package io.blockscope.agenttest.host;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;

/** A reader with the classic bug: it checks a block out and forgets to give it back. */
public final class LeakyReader {

    public int readAndForget(BlockCache cache, BlockCacheKey key) {
        Block block = cache.getBlock(key, true, false, true);
        return block == null ? -1 : block.length(); // no returnBlock: a leak
    }
}
