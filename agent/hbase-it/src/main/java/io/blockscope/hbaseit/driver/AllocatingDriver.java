package io.blockscope.hbaseit.driver;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * HBase 2.3+'s {@code ByteBuffAllocator} with a small pool (two 1 KiB buffers, nothing under 256
 * bytes pooled), driven into each of its heap fallbacks from a method of its own, so each reason has
 * a known site: a request below the minimal pooled size, the small tail of a pooled request, a
 * request and a one-buffer request while the pool is exhausted, and the shared pool-less
 * {@code HEAP} allocator. Then the pool's buffers go back and one is taken again.
 *
 * <p>Checkpoint {@code pooled} comes first, with one buffer taken from the pool and no heap
 * allocation made yet, and reports the pool's buffer counts. Checkpoint {@code allocated} reports the expected calls and bytes per reason and HBase's own
 * counters and buffer counts.
 */
public final class AllocatingDriver {

    static final int BUFFER_SIZE = 1024;
    static final int MAX_BUFFERS = 2;
    static final int MIN_POOLED = 256;

    private final DriverConsole console = new DriverConsole();

    public static void main(String[] args) throws Exception {
        new AllocatingDriver().run();
    }

    private void run() throws Exception {
        Configuration conf = new Configuration(false);
        conf.setInt(ByteBuffAllocator.MAX_BUFFER_COUNT_KEY, MAX_BUFFERS);
        conf.setInt(ByteBuffAllocator.BUFFER_SIZE_KEY, BUFFER_SIZE);
        conf.setInt(ByteBuffAllocator.MIN_ALLOCATE_SIZE_KEY, MIN_POOLED);
        ByteBuffAllocator pool = ByteBuffAllocator.create(conf, true);

        // a buffer from the pool before any heap allocation: the pool is read from the start
        ByteBuff first = pool.allocate(BUFFER_SIZE);
        console.checkpoint(
                "pooled",
                new DriverConsole.Fields()
                        .put("buffers.created", pool.getUsedBufferCount())
                        .put("buffers.free", pool.getFreeBufferCount()));
        first.release();

        ByteBuff small = belowMinimum(pool); // heap: 100 bytes, below_min_size
        ByteBuff held = takeWholePool(pool); // pool: 2 x 1024; heap: the 100-byte tail, below_min_size
        ByteBuff over = whileExhausted(pool); // heap: 1500 bytes, pool_exhausted
        ByteBuff one = oneBufferWhileExhausted(pool); // heap: 1024 bytes, pool_exhausted
        ByteBuff shared = withoutPool(); // heap: 300 bytes, pool_disabled
        held.release();
        ByteBuff again = pool.allocate(BUFFER_SIZE); // pool: a buffer back from the queue

        console.checkpoint(
                "allocated",
                new DriverConsole.Fields()
                        .put("below_min_size.calls", 2)
                        .put("below_min_size.bytes", 200)
                        .put("pool_exhausted.calls", 2)
                        .put("pool_exhausted.bytes", 1500 + BUFFER_SIZE)
                        .put("pool_disabled.calls", 1)
                        .put("pool_disabled.bytes", 300)
                        .put("hbase.heap.bytes", ByteBuffAllocator.getHeapAllocationBytes(pool, ByteBuffAllocator.HEAP))
                        .put("hbase.pool.bytes", pool.getPoolAllocationBytes())
                        .put("buffers.max", pool.getTotalBufferCount())
                        .put("buffers.created", pool.getUsedBufferCount())
                        .put("buffers.free", pool.getFreeBufferCount())
                        .put("buffer.size", pool.getBufferSize()));
        for (ByteBuff b : new ByteBuff[] {small, over, one, shared, again}) {
            b.release();
        }
    }

    private static ByteBuff belowMinimum(ByteBuffAllocator pool) {
        return pool.allocate(100);
    }

    private static ByteBuff takeWholePool(ByteBuffAllocator pool) {
        return pool.allocate(2 * BUFFER_SIZE + 100);
    }

    private static ByteBuff whileExhausted(ByteBuffAllocator pool) {
        return pool.allocate(1500);
    }

    private static ByteBuff oneBufferWhileExhausted(ByteBuffAllocator pool) {
        return pool.allocateOneBuffer();
    }

    private static ByteBuff withoutPool() {
        return ByteBuffAllocator.HEAP.allocate(300);
    }
}
