package io.blockscope.server.cache;

import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.bucket.ByteBufferIOEngine;
import io.blockscope.server.cache.bucket.FileIOEngine;
import io.blockscope.server.cache.bucket.IOEngine;
import io.blockscope.server.cache.bucket.IOEngineType;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.cache.lru.LruBlockCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Builds the block cache of a {@link CacheConfig}'s deploy. */
public final class BlockCaches {

    private BlockCaches() {}

    /**
     * The cache for {@code config}: an {@link LruBlockCache} for {@code lru}, otherwise a
     * {@link CombinedBlockCache} (with no L2 for {@code meta-only}). All L2 memory is reserved here.
     *
     * @throws IllegalArgumentException when the L2 memory or file cannot be had, saying what to change
     */
    public static BlockCache create(CacheConfig config) {
        return switch (config.deploy()) {
            case LRU -> new LruBlockCache(config.l1Size());
            case META_ONLY -> CombinedBlockCache.metaOnly(new LruBlockCache(config.l1Size()));
            case CBC_OFFHEAP, CBC_ONHEAP, CBC_FILE ->
                new CombinedBlockCache(new LruBlockCache(config.l1Size()), createBucketCache(config));
        };
    }

    /** The L2 of a {@code cbc-*} config on its own. */
    public static BucketCache createBucketCache(CacheConfig config) {
        IOEngineType type = config.ioEngine()
                .orElseThrow(() ->
                        new IllegalArgumentException("deploy " + config.deploy().label() + " has no L2 cache"));
        int[] slotSizes = config.bucketSizes();
        long bucketSize = BucketAllocator.bucketSizeFor(slotSizes);
        long capacity = config.l2Size() / bucketSize * bucketSize; // whole buckets only: reserve nothing unused
        IOEngine engine = createEngine(type, capacity, config.filePath());
        return new BucketCache(engine, slotSizes, config.readPathMode());
    }

    private static IOEngine createEngine(IOEngineType type, long capacity, Optional<Path> path) {
        return switch (type) {
            case OFFHEAP -> ByteBufferIOEngine.offheap(reservable(type, capacity, MemoryRoom.direct()));
            case HEAP -> ByteBufferIOEngine.heap(reservable(type, capacity, MemoryRoom.heap()));
            case FILE -> openFile(path, capacity);
        };
    }

    /**
     * {@code capacity}, if the JVM has room for it; otherwise a clear error at startup, before any
     * block exists, instead of an OutOfMemoryError halfway through reserving the cache.
     */
    private static long reservable(IOEngineType type, long capacity, long room) {
        if (capacity <= room) {
            return capacity;
        }
        String fix = type == IOEngineType.OFFHEAP
                ? "raise -XX:MaxDirectMemorySize (its default is the maximum heap size)"
                : "raise -Xmx";
        throw new IllegalArgumentException("cannot reserve the " + capacity + " byte " + type.label() + " L2 cache ("
                + room + " bytes free): " + fix + " or lower the L2 size");
    }

    private static FileIOEngine openFile(Optional<Path> configured, long capacity) {
        Path path = configured.orElseGet(BlockCaches::defaultCacheDirectory);
        if (Files.isDirectory(path)) {
            try {
                Path file = Files.createTempFile(path, "blockscope-l2-", ".cache");
                return FileIOEngine.open(file, capacity, true);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "cannot create a bucket cache file in " + path + " (" + e
                                + "): give a writable directory or file on tmpfs or a local disk",
                        e);
            }
        }
        return FileIOEngine.open(path, capacity, !Files.exists(path));
    }

    private static Path defaultCacheDirectory() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The L2 bucket cache inside {@code cache}, if it has one. */
    public static Optional<BucketCache> l2Of(BlockCache cache) {
        if (cache instanceof BucketCache bucket) {
            return Optional.of(bucket);
        }
        if (cache instanceof CombinedBlockCache combined) {
            return combined.l2();
        }
        return Optional.empty();
    }
}
