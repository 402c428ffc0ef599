package io.blockscope.agenttest.host;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;
import java.util.ArrayList;
import java.util.List;

/** A reader that keeps blocks for good: never garbage, never returned (a leak by age). */
public final class HoldingReader {

    private final List<Block> held = new ArrayList<>();

    public void holdForever(BlockCache cache, BlockCacheKey key) {
        held.add(cache.getBlock(key, true, false, true));
    }

    public int held() {
        return held.size();
    }
}
