package io.blockscope.server.bench;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.bucket.ByteBufferIOEngine;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One L2 hit as the read path pays for it: {@code getBlock}, a read of the block, {@code returnBlock},
 * on an offheap bucket cache of 64 KB blocks, in zero-copy and copy mode, from one and two threads.
 * Each thread walks the cached blocks from its own starting point, so two threads rarely touch the
 * same entry at the same time (as with random reads over a large cache).
 *
 * <pre>example-server/jmh.sh BlockCacheBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class BlockCacheBenchmark {

    static final int BLOCK_SIZE = 64 * 1024;
    static final int BLOCKS = 64;

    @Param({"zero-copy", "copy"})
    public String readPath;

    BucketCache cache;
    BlockCacheKey[] keys;
    final AtomicInteger threads = new AtomicInteger();

    @Setup(Level.Trial)
    public void fill() {
        int[] classes = BucketAllocator.defaultSlotSizes();
        long capacity = 4 * BucketAllocator.bucketSizeFor(classes); // 3 buckets hold the 64 blocks
        cache = new BucketCache(ByteBufferIOEngine.offheap(capacity), classes, ReadPathMode.fromLabel(readPath));
        keys = new BlockCacheKey[BLOCKS];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < BLOCKS; i++) {
            keys[i] = new BlockCacheKey("bench-store", (long) i * BLOCK_SIZE);
            byte[] bytes = new byte[BLOCK_SIZE];
            random.nextBytes(bytes);
            cache.cacheBlock(keys[i], new Block(BlockType.DATA, ByteBuff.wrap(bytes), Block.MemoryType.EXCLUSIVE));
        }
        if (cache.blockCount() != BLOCKS) {
            throw new IllegalStateException("only " + cache.blockCount() + " of " + BLOCKS + " blocks were cached");
        }
    }

    @TearDown(Level.Trial)
    public void check() {
        if (cache.outstandingReferences() != 0) {
            throw new IllegalStateException(cache.outstandingReferences() + " references were not returned");
        }
        cache.shutdown();
    }

    /** Per-thread position in the key ring. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        @Setup(Level.Trial)
        public void start(BlockCacheBenchmark bench) {
            next = bench.threads.getAndIncrement() * (BLOCKS / 2);
        }

        int advance() {
            next = (next + 1) & (BLOCKS - 1);
            return next;
        }
    }

    @Benchmark
    @Threads(1)
    public long hitOneThread(Cursor cursor) {
        return hit(cursor);
    }

    @Benchmark
    @Threads(2)
    public long hitTwoThreads(Cursor cursor) {
        return hit(cursor);
    }

    private long hit(Cursor cursor) {
        BlockCacheKey key = keys[cursor.advance()];
        Block block = cache.getBlock(key, true, false, true);
        long value = block.data().getLong(BLOCK_SIZE - Long.BYTES); // a reader touches the block
        cache.returnBlock(key, block);
        return value;
    }
}
