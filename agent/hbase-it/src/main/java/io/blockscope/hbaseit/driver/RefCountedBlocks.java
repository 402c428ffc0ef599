package io.blockscope.hbaseit.driver;

import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.nio.ByteBuff;

/** HBase 2.3 and later: reference-counted blocks, given back with {@code release()}. */
final class RefCountedBlocks implements HBaseBlocks {

    private final HFileContext context = new HFileContextBuilder()
            .withHBaseCheckSum(false)
            .withIncludesTags(false)
            .build();
    /** A RegionServer's read buffer pool (hbase.server.allocator.*), with its defaults. */
    private final ByteBuffAllocator readPool = ByteBuffAllocator.create(HBaseConfiguration.create(), true);

    @Override
    public Cacheable newBlock(BlockType type, int bytes, long fileOffset) {
        return build(type, ByteBuff.wrap(Payload.of(type, bytes, fileOffset)), fileOffset, ByteBuffAllocator.HEAP);
    }

    @Override
    public Cacheable readFromDisk(int bytes, long fileOffset) {
        ByteBuff buf = readPool.allocate(bytes);
        if (buf.hasArray()) {
            throw new IllegalStateException(bytes + " bytes came from the heap, not the offheap read pool:"
                    + " use blocks of at least hbase.server.allocator.minimal.allocate.size");
        }
        buf.put(Payload.of(BlockType.DATA, bytes, fileOffset).array());
        buf.rewind();
        return build(BlockType.DATA, buf, fileOffset, readPool);
    }

    private HFileBlock build(BlockType type, ByteBuff buf, long fileOffset, ByteBuffAllocator allocator) {
        int bytes = buf.limit();
        int withoutHeader = bytes - Payload.HEADER_BYTES;
        return new HFileBlockBuilder()
                .withBlockType(type)
                .withOnDiskSizeWithoutHeader(withoutHeader)
                .withUncompressedSizeWithoutHeader(withoutHeader)
                .withPrevBlockOffset(-1L)
                .withByteBuff(buf)
                .withFillHeader(false)
                .withOffset(fileOffset)
                .withNextBlockOnDiskSize(-1)
                .withOnDiskDataSizeWithHeader(bytes)
                .withHFileContext(context)
                .withByteBuffAllocator(allocator)
                .withShared(!buf.hasArray())
                .build();
    }

    @Override
    public BlockCache combine(LruBlockCache l1, BlockCache l2) {
        return new CombinedBlockCache(l1, l2);
    }

    @Override
    public boolean takesReference(Cacheable block) {
        return ((HFileBlock) block).isSharedMem();
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
