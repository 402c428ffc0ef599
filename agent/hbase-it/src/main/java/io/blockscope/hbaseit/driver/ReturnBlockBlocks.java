package io.blockscope.hbaseit.driver;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;

/**
 * HBase 2.0 to 2.2: blocks are given back with {@code BlockCache#returnBlock}, and only blocks in
 * shared memory are. None of the members involved exists in the 2.6 API these drivers compile
 * against, so they are bound by method handle when this class is first used.
 */
final class ReturnBlockBlocks implements HBaseBlocks {

    private static final MethodHandle NEW_BLOCK;
    private static final MethodHandle RETURN_BLOCK;
    private static final MethodHandle NEW_COMBINED;
    private static final MethodHandle MEMORY_TYPE;

    static {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        try {
            NEW_BLOCK = lookup.findConstructor(
                    HFileBlock.class,
                    MethodType.methodType(
                            void.class,
                            BlockType.class,
                            int.class,
                            int.class,
                            long.class,
                            ByteBuffer.class,
                            boolean.class,
                            long.class,
                            int.class,
                            int.class,
                            HFileContext.class));
            RETURN_BLOCK = lookup.findVirtual(
                    BlockCache.class,
                    "returnBlock",
                    MethodType.methodType(void.class, BlockCacheKey.class, Cacheable.class));
            NEW_COMBINED = lookup.findConstructor(
                    CombinedBlockCache.class, MethodType.methodType(void.class, LruBlockCache.class, BlockCache.class));
            Class<?> memoryType = Class.forName("org.apache.hadoop.hbase.io.hfile.Cacheable$MemoryType");
            MEMORY_TYPE = lookup.findVirtual(Cacheable.class, "getMemoryType", MethodType.methodType(memoryType));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("not an HBase 2.0-2.2 class path: " + e, e);
        }
    }

    private final HFileContext context = new HFileContextBuilder()
            .withHBaseCheckSum(false)
            .withIncludesTags(false)
            .build();

    @Override
    public Cacheable newBlock(BlockType type, int bytes, long fileOffset) {
        int withoutHeader = bytes - Payload.HEADER_BYTES;
        try {
            return (Cacheable) NEW_BLOCK.invoke(
                    type,
                    withoutHeader,
                    withoutHeader,
                    -1L,
                    Payload.of(type, bytes, fileOffset),
                    false,
                    fileOffset,
                    -1,
                    bytes,
                    context);
        } catch (Throwable t) {
            throw new IllegalStateException("HFileBlock constructor failed", t);
        }
    }

    /** Before 2.3 a store file reader reads into a fresh heap buffer. */
    @Override
    public Cacheable readFromDisk(int bytes, long fileOffset) {
        return newDataBlock(bytes, fileOffset);
    }

    @Override
    public BlockCache combine(LruBlockCache l1, BlockCache l2) {
        try {
            return (BlockCache) NEW_COMBINED.invoke(l1, l2);
        } catch (Throwable t) {
            throw new IllegalStateException("CombinedBlockCache constructor failed", t);
        }
    }

    @Override
    public boolean takesReference(Cacheable block) {
        try {
            return ((Enum<?>) MEMORY_TYPE.invoke(block)).name().equals("SHARED");
        } catch (Throwable t) {
            throw new IllegalStateException("getMemoryType failed", t);
        }
    }

    @Override
    public void giveBack(BlockCache cache, BlockCacheKey key, Cacheable block) {
        try {
            RETURN_BLOCK.invoke(cache, key, block);
        } catch (Throwable t) {
            throw new IllegalStateException("returnBlock failed", t);
        }
    }

    @Override
    public void dropCreatorReference(Cacheable block) {
        // Before 2.3 the creator of a block holds no reference the cache could count.
    }

    @Override
    public String model() {
        return "returnBlock";
    }
}
