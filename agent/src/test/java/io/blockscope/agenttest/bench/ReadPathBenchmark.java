package io.blockscope.agenttest.bench;

import io.blockscope.agenttest.host.DirectCell;
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
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The instrumented read path on the example server's real caches: a data block lookup through the
 * combined cache (L1 miss, L2 zero-copy hit) and its return, i.e. three probed calls per operation;
 * and a value read from an offheap cell the old way (one probed copy). Run with and without the
 * agent by {@link AgentOverhead}.
 *
 * <p>The block is kept in a field, as a reader keeps it in its state: without that, the JIT could
 * scalar-replace the per-checkout {@code Block} when nothing observes it, a saving no server gets.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReadPathBenchmark {

    private static final int BLOCKS = 64;

    private CombinedBlockCache cache;
    private BlockCacheKey[] keys;
    private DirectCell cell;
    private int next;
    /** Where a reader keeps its block while it reads (a scanner's state): the block escapes, as in a server. */
    private Block current;

    @Setup
    public void setUp() {
        int[] slots = BucketAllocator.defaultSlotSizes();
        BucketCache l2 = new BucketCache(
                ByteBufferIOEngine.offheap(8 * BucketAllocator.bucketSizeFor(slots)), slots, ReadPathMode.ZERO_COPY);
        cache = new CombinedBlockCache(new LruBlockCache(16L << 20), l2);
        keys = new BlockCacheKey[BLOCKS];
        for (int i = 0; i < BLOCKS; i++) {
            keys[i] = new BlockCacheKey("bench", i * 65536L);
            cache.cacheBlock(
                    keys[i], new Block(BlockType.DATA, ByteBuff.wrap(new byte[16 * 1024]), Block.MemoryType.EXCLUSIVE));
        }
        cell = new DirectCell(16, 1, 8, 64, 0);
    }

    @TearDown
    public void tearDown() {
        cache.shutdown();
    }

    /** getBlock (two leaf lookups) + returnBlock: the zero-copy read path's reference traffic. */
    @Benchmark
    public int getAndReturn() {
        BlockCacheKey key = keys[next++ & (BLOCKS - 1)];
        Block block = cache.getBlock(key, true, false, true);
        current = block;
        int length = block.length();
        cache.returnBlock(key, block);
        return length;
    }

    /** A 64-byte value read through getValueArray(): the copy itself plus its probe. */
    @Benchmark
    public byte[] copyValue() {
        return cell.getValueArray();
    }
}
