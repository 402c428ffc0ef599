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
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A deterministic workload on the example server's real caches (an L1 LRU and an offheap L2 bucket
 * cache behind a combined cache), driven by commands on stdin so a test can scrape the agent between
 * phases. Every command ends with a line {@code ok <command>}.
 *
 * <ul>
 *   <li>{@code work R}: R rounds; each gets every data block (L1 miss, L2 hit), every meta block
 *       (L1 hit) and every absent key (miss in both), returning every hit.</li>
 *   <li>{@code copy N}: N copies of the value through {@link CopyingFilter}, and N of the row here.</li>
 *   <li>{@code leak N}: N checkouts {@link LeakyReader} never returns, then garbage collections.</li>
 *   <li>{@code leak-tracking true|false}: the diagnostics jar's leak-tracking switch, read back.</li>
 *   <li>{@code hold N}: N checkouts {@link HoldingReader} keeps forever.</li>
 *   <li>{@code stats}: the caches' own statistics, for the test to compare with the agent's.</li>
 *   <li>{@code probes SPEC}: sets the diagnostics agent jar's probe switch to SPEC
 *       ({@code all}, {@code none} or probe names) through the platform MBean server; prints
 *       {@code probes took T ms}, {@code probes switches=N} and {@code probes installed=<read back>}, or {@code probes error <message>}.</li>
 *   <li>{@code exit}</li>
 * </ul>
 */
public final class CacheWorkload {

    /** Data block sizes: one in each of several bucket size classes. */
    public static final int[] DATA_SIZES = {3000, 8000, 16000, 60000, 65536, 100000};

    public static final int META_BLOCKS = 4;
    public static final int META_SIZE = 2048;
    public static final int ABSENT_KEYS = 3;
    /** The cell {@code copy} reads: row 10, family 1, qualifier 7, value 100, tags 0 bytes. */
    public static final int ROW = 10;

    public static final int VALUE = 100;

    private final LruBlockCache l1 = new LruBlockCache(8L << 20);
    private final BucketCache l2;
    private final CombinedBlockCache cache;
    private final HoldingReader holder = new HoldingReader();

    private CacheWorkload(ReadPathMode mode) {
        int[] slots = BucketAllocator.defaultSlotSizes();
        long capacity = 8 * BucketAllocator.bucketSizeFor(slots);
        l2 = new BucketCache(ByteBufferIOEngine.offheap(capacity), slots, mode);
        cache = new CombinedBlockCache(l1, l2);
        for (int i = 0; i < DATA_SIZES.length; i++) {
            cache.cacheBlock(dataKey(i), block(BlockType.DATA, DATA_SIZES[i]));
        }
        for (int i = 0; i < META_BLOCKS; i++) {
            cache.cacheBlock(metaKey(i), block(BlockType.INDEX, META_SIZE));
        }
    }

    public static void main(String[] args) throws Exception {
        CacheWorkload workload = new CacheWorkload(ReadPathMode.fromLabel(args.length > 0 ? args[0] : "zero-copy"));
        System.out.println("ready port=" + AgentState.port());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] command = line.trim().split(" ");
            if (command[0].equals("pause")) {
                pause(Boolean.parseBoolean(command[1]));
                System.out.println("ok pause");
                continue;
            }
            if (command[0].equals("leak-tracking")) {
                leakTracking(Boolean.parseBoolean(command[1]));
                System.out.println("ok leak-tracking");
                continue;
            }
            if (command[0].equals("probes")) {
                probes(line.trim().substring("probes".length()).trim());
                System.out.println("ok probes");
                continue;
            }
            int n = command.length > 1 ? Integer.parseInt(command[1]) : 0;
            switch (command[0]) {
                case "work" -> workload.work(n);
                case "copy" -> workload.copy(n);
                case "leak" -> workload.leak(n);
                case "hold" -> workload.hold(n);
                case "stats" -> workload.stats();
                case "exit" -> {
                    System.out.println("ok exit");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown command " + line);
            }
            System.out.println("ok " + command[0]);
        }
    }

    /** Pauses or resumes the agent's recording through its probe switch and reads it back. */
    private static void pause(boolean pause) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.blockscope:type=ProbeSwitch");
            server.setAttribute(name, new Attribute("Paused", pause));
            System.out.println("pause paused=" + server.getAttribute(name, "Paused"));
        } catch (Exception e) {
            System.out.println("pause error " + e);
        }
    }

    /** Turns the agent's leak tracking on or off through the probe switch and reads it back. */
    private static void leakTracking(boolean on) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.blockscope:type=ProbeSwitch");
            server.setAttribute(name, new Attribute("LeakTracking", on));
            System.out.println("leak-tracking on=" + server.getAttribute(name, "LeakTracking"));
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.out.println("leak-tracking error " + root);
        }
    }

    /** Sets the agent's probe switch to {@code spec} and reads it back (a host's view: JMX only). */
    private static void probes(String spec) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.blockscope:type=ProbeSwitch");
            long began = System.nanoTime();
            server.setAttribute(name, new Attribute("Installed", spec));
            long micros = (System.nanoTime() - began) / 1_000;
            System.out.println("probes took " + micros / 1000 + "." + String.format("%03d", micros % 1000) + " ms");
            System.out.println("probes switches=" + server.getAttribute(name, "Switches"));
            System.out.println("probes installed=" + server.getAttribute(name, "Installed"));
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.out.println("probes error " + root.getClass().getName() + ": " + root.getMessage());
        }
    }

    private void work(int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < DATA_SIZES.length; i++) {
                read(dataKey(i), DATA_SIZES[i]);
            }
            for (int i = 0; i < META_BLOCKS; i++) {
                read(metaKey(i), META_SIZE);
            }
            for (int i = 0; i < ABSENT_KEYS; i++) {
                if (cache.getBlock(new BlockCacheKey("absent", i), true, false, true) != null) {
                    throw new AssertionError("absent key found");
                }
            }
        }
    }

    private void read(BlockCacheKey key, int size) {
        Block block = cache.getBlock(key, true, false, true);
        if (block == null || block.length() != size) {
            throw new AssertionError("expected a " + size + "-byte block for " + key + ", got " + block);
        }
        cache.returnBlock(key, block);
    }

    private void copy(int n) {
        DirectCell cell = new DirectCell(ROW, 1, 7, VALUE, 0);
        CopyingFilter filter = new CopyingFilter();
        long rows = 0;
        for (int i = 0; i < n; i++) {
            filter.filterCell(cell);
            rows += cell.getRowArray().length;
        }
        System.out.println("copied checksum=" + filter.checksum() + " rowBytes=" + rows);
    }

    private void leak(int n) throws InterruptedException {
        LeakyReader reader = new LeakyReader();
        for (int i = 0; i < n; i++) {
            reader.readAndForget(cache, dataKey(i % DATA_SIZES.length));
        }
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
        }
    }

    private void hold(int n) {
        for (int i = 0; i < n; i++) {
            holder.holdForever(cache, dataKey(i % DATA_SIZES.length));
        }
    }

    private void stats() {
        System.out.println("stat l1.hits=" + l1.getStats().hitCount() + " l1.misses="
                + l1.getStats().missCount() + " l2.hits=" + l2.getStats().hitCount() + " l2.misses="
                + l2.getStats().missCount());
        System.out.println("stat capacity=" + l2.capacity() + " used=" + l2.usedSize() + " wasted=" + l2.wastedBytes()
                + " failures=" + l2.allocationFailures() + " mode="
                + l2.readPathMode().label());
        for (BucketAllocator.IndexStatistics s : l2.allocator().indexStatistics()) {
            System.out.println("sizeclass item=" + s.itemSize() + " used=" + s.usedCount() + " free=" + s.freeCount()
                    + " usedBytes=" + s.usedBytes() + " freeBytes=" + s.freeBytes());
        }
    }

    private static BlockCacheKey dataKey(int i) {
        return new BlockCacheKey("data", i * 1_000_000L);
    }

    private static BlockCacheKey metaKey(int i) {
        return new BlockCacheKey("meta", i);
    }

    private static Block block(BlockType type, int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31);
        }
        return new Block(type, ByteBuff.wrap(bytes), Block.MemoryType.EXCLUSIVE);
    }
}
