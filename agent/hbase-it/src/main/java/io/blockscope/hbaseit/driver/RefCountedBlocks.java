package io.blockscope.hbaseit.driver;

import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.ByteBuff;

/** HBase 2.3 and later: reference-counted blocks, given back with {@code release()}. */
final class RefCountedBlocks implements HBaseBlocks {

    private final HFileContext context = new HFileContextBuilder()
            .withHBaseCheckSum(false)
            .withIncludesTags(false)
            .build();

    @Override
    public Cacheable newDataBlock(int bytes, long fileOffset) {
        int withoutHeader = bytes - Payload.HEADER_BYTES;
        return new HFileBlockBuilder()
                .withBlockType(BlockType.DATA)
                .withOnDiskSizeWithoutHeader(withoutHeader)
                .withUncompressedSizeWithoutHeader(withoutHeader)
                .withPrevBlockOffset(-1L)
                .withByteBuff(ByteBuff.wrap(Payload.of(bytes, fileOffset)))
                .withFillHeader(false)
                .withOffset(fileOffset)
                .withNextBlockOnDiskSize(-1)
                .withOnDiskDataSizeWithHeader(bytes)
                .withHFileContext(context)
                .withByteBuffAllocator(ByteBuffAllocator.HEAP)
                .build();
    }

    @Override
    public void giveBack(BlockCache cache, BlockCacheKey key, Cacheable block) {
        block.release();
    }

    @Override
    public void dropCreatorReference(Cacheable block) {
        block.release();
    }

    @Override
    public String model() {
        return "refcount";
    }
}
