package io.blockscope.server.cache;

import static io.blockscope.server.cache.TestBlocks.dataBlock;
import static io.blockscope.server.cache.TestBlocks.intact;
import static io.blockscope.server.cache.TestBlocks.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.bucket.FileIOEngine;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.cache.lru.LruBlockCache;
import io.blockscope.testsupport.Command;
import io.blockscope.testsupport.JavaCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockCachesTest {

    private static final long BUCKET = 4 * 513 * 1024;

    @TempDir
    Path dir;

    private static CacheConfig.Builder config(CacheDeploy deploy) {
        return CacheConfig.builder().deploy(deploy).l1Size(4 << 20).l2Size(5 * BUCKET + 1000);
    }

    @Test
    void lruHoldsEveryBlockInOneHeapCache() {
        BlockCache cache = BlockCaches.create(config(CacheDeploy.LRU).build());
        LruBlockCache lru = assertInstanceOf(LruBlockCache.class, cache);
        assertEquals(4 << 20, lru.capacity());
        cache.cacheBlock(key(1), dataBlock(1, 5000));
        assertTrue(lru.containsBlock(key(1)), "data blocks too");
        assertTrue(BlockCaches.l2Of(cache).isEmpty());
    }

    @Test
    void metaOnlyHasNoL2() {
        BlockCache cache = BlockCaches.create(config(CacheDeploy.META_ONLY).build());
        CombinedBlockCache combined = assertInstanceOf(CombinedBlockCache.class, cache);
        assertTrue(combined.l2().isEmpty());
        assertEquals(4 << 20, cache.capacity());
    }

    @Test
    void combinedDeploysPutTheirL2OnTheirEngine() {
        for (CacheDeploy deploy : List.of(CacheDeploy.CBC_OFFHEAP, CacheDeploy.CBC_ONHEAP, CacheDeploy.CBC_FILE)) {
            CacheConfig config =
                    config(deploy).readPathMode(ReadPathMode.COPY).filePath(dir).build();
            BlockCache cache = BlockCaches.create(config);
            BucketCache l2 = BlockCaches.l2Of(cache).orElseThrow();
            assertEquals(deploy.l2Engine().orElseThrow(), l2.ioEngine().type());
            assertEquals(5 * BUCKET, l2.capacity(), "whole buckets only");
            assertEquals(5 * BUCKET, l2.ioEngine().capacity(), "nothing reserved beyond the buckets");
            assertEquals(ReadPathMode.COPY, l2.readPathMode());
            assertEquals((4 << 20) + 5 * BUCKET, cache.capacity());
            cache.cacheBlock(key(1), dataBlock(1, 64 * 1024));
            Block b = cache.getBlock(key(1), true, false, true);
            assertTrue(intact(b, 1));
            cache.returnBlock(key(1), b);
            cache.shutdown();
        }
    }

    @Test
    void theFileDeployMakesAndRemovesItsFileInADirectory() throws IOException {
        BlockCache cache =
                BlockCaches.create(config(CacheDeploy.CBC_FILE).filePath(dir).build());
        BucketCache l2 = BlockCaches.l2Of(cache).orElseThrow();
        Path file = ((FileIOEngine) l2.ioEngine()).file();
        assertEquals(dir, file.getParent());
        assertEquals(5 * BUCKET, Files.size(file));
        cache.shutdown();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "the cache file is deleted at shutdown");
        }
    }

    @Test
    void anExistingFileIsUsedAndKept() throws IOException {
        Path file = Files.write(dir.resolve("mine.cache"), new byte[10]);
        BlockCache cache =
                BlockCaches.create(config(CacheDeploy.CBC_FILE).filePath(file).build());
        assertEquals(5 * BUCKET, Files.size(file));
        cache.shutdown();
        assertTrue(Files.exists(file), "a file the cache did not create is not deleted");

        Path fresh = dir.resolve("fresh.cache");
        BlockCaches.create(config(CacheDeploy.CBC_FILE).filePath(fresh).build()).shutdown();
        assertFalse(Files.exists(fresh), "a file the cache created is deleted");
    }

    @Test
    void anUnwritableFileIsExplained() throws IOException {
        Path blocker = Files.createFile(dir.resolve("not-a-dir"));
        Path impossible = blocker.resolve("cache");
        String message = assertThrows(
                        IllegalArgumentException.class,
                        () -> BlockCaches.create(config(CacheDeploy.CBC_FILE)
                                .filePath(impossible)
                                .build()))
                .getMessage();
        assertTrue(message.contains(impossible.toString()) && message.contains("writable"), message);
    }

    @Test
    void theDefaultFileLivesInSharedMemoryOrTheTempDirectory() {
        BucketCache l2 =
                BlockCaches.createBucketCache(config(CacheDeploy.CBC_FILE).build());
        try {
            Path file = ((FileIOEngine) l2.ioEngine()).file();
            Path expected = Files.isWritable(Path.of("/dev/shm"))
                    ? Path.of("/dev/shm")
                    : Path.of(System.getProperty("java.io.tmpdir"));
            assertEquals(expected, file.getParent());
            assertTrue(Files.exists(file));
        } finally {
            l2.shutdown();
        }
    }

    @Test
    void aDeployWithoutL2HasNoBucketCacheToCreate() {
        String message = assertThrows(
                        IllegalArgumentException.class,
                        () -> BlockCaches.createBucketCache(
                                config(CacheDeploy.LRU).build()))
                .getMessage();
        assertTrue(message.contains("has no L2"), message);
    }

    /** Entry point of the child JVM below: builds a 64 MB offheap L2 and prints the outcome. */
    public static final class OffheapProbe {
        public static void main(String[] args) {
            try {
                BlockCaches.create(CacheConfig.builder().l2Size(64L << 20).build())
                        .shutdown();
                System.out.println("created");
            } catch (IllegalArgumentException e) {
                System.out.println(e.getMessage());
            }
        }
    }

    @Test
    void anL2BeyondTheDirectMemoryLimitFailsWithAHint() throws Exception {
        Command.Result child = Command.run(
                JavaCommand.onTestJvm()
                        .option("-XX:MaxDirectMemorySize=16m")
                        .option("-Xmx64m")
                        .classPath(System.getProperty("java.class.path"))
                        .main(OffheapProbe.class.getName())
                        .command(),
                null,
                Duration.ofSeconds(60));
        String output = child.output();
        assertTrue(output.contains("cannot reserve") && output.contains("-XX:MaxDirectMemorySize"), output);
    }
}
