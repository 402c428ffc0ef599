package io.blockscope.agenttest.host;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.bucket.ByteBufferIOEngine;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.cache.lru.LruBlockCache;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads blocks from real caches on two threads, checking every block, until stdin says stop (or a
 * minute passes): the load a late attach must not disturb. Prints {@code load done ops=N errors=E}.
 */
public final class LoadHost {

    public static void main(String[] args) throws Exception {
        int[] slots = BucketAllocator.defaultSlotSizes();
        BucketCache l2 = new BucketCache(
                ByteBufferIOEngine.offheap(4 * BucketAllocator.bucketSizeFor(slots)), slots, ReadPathMode.ZERO_COPY);
        CombinedBlockCache cache = new CombinedBlockCache(new LruBlockCache(4L << 20), l2);
        int blocks = 16;
        for (int i = 0; i < blocks; i++) {
            byte[] bytes = new byte[4096 + i * 1000];
            bytes[0] = (byte) i;
            cache.cacheBlock(
                    new BlockCacheKey("f", i),
                    new Block(BlockType.DATA, ByteBuff.wrap(bytes), Block.MemoryType.EXCLUSIVE));
        }
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long deadline = System.currentTimeMillis() + 60_000;
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                DirectCell cell = new DirectCell(8, 1, 4, 32, 0);
                while (!Thread.currentThread().isInterrupted() && System.currentTimeMillis() < deadline) {
                    for (int i = 0; i < blocks; i++) {
                        try {
                            BlockCacheKey key = new BlockCacheKey("f", i);
                            Block block = cache.getBlock(key, true, false, true);
                            if (block == null || block.data().get(0) != (byte) i || block.length() != 4096 + i * 1000) {
                                errors.incrementAndGet();
                            }
                            if (cell.getValueArray().length != 32) {
                                errors.incrementAndGet();
                            }
                            if (block != null) {
                                cache.returnBlock(key, block);
                            }
                            ops.incrementAndGet();
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                            e.printStackTrace();
                        }
                    }
                }
            });
            threads[t].start();
        }
        System.out.println("loading");
        while (System.in.read() != '\n' && System.currentTimeMillis() < deadline) {
            // wait for "stop"
        }
        for (Thread t : threads) {
            t.interrupt();
            t.join();
        }
        System.out.println("load done ops=" + ops.get() + " errors=" + errors.get() + " outstanding="
                + l2.outstandingReferences());
    }
}
