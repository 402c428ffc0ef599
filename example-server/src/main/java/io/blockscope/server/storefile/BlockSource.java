package io.blockscope.server.storefile;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import java.io.IOException;

/**
 * Where a {@link StoreFileReader} gets its blocks: straight from the file
 * ({@link StoreFileReader#uncachedBlocks()}) or through a block cache (the read path's source,
 * which puts index and bloom blocks in L1 and data blocks in L2).
 *
 * <p>Every block a source hands out must be given back with exactly one
 * {@link #returnBlock(BlockCacheKey, Block)}, once nothing refers to its bytes any more.
 */
public interface BlockSource {

    /**
     * The block at {@code key.offset()} of file {@code key.fileName()}, checksum-verified, with its
     * header stripped.
     *
     * @param expectedType the type the caller needs; a block of another type is corruption
     * @throws CorruptStoreFileException when the block is damaged or of the wrong type
     */
    Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException;

    /** Gives back a block obtained from {@link #getBlock}. */
    void returnBlock(BlockCacheKey key, Block block);
}
