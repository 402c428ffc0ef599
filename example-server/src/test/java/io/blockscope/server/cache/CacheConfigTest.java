package io.blockscope.server.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.IOEngineType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class CacheConfigTest {

    private static String failure(Executable bad) {
        return assertThrows(IllegalArgumentException.class, bad).getMessage();
    }

    @Test
    void defaultsAreAnOffheapCombinedCacheServingZeroCopy() {
        CacheConfig config = CacheConfig.defaults();
        assertEquals(CacheDeploy.CBC_OFFHEAP, config.deploy());
        assertEquals(64L << 20, config.l1Size());
        assertEquals(1L << 30, config.l2Size());
        assertEquals(Optional.of(IOEngineType.OFFHEAP), config.ioEngine());
        assertEquals(ReadPathMode.ZERO_COPY, config.readPathMode());
        assertArrayEquals(BucketAllocator.defaultSlotSizes(), config.bucketSizes());
        assertEquals(Optional.empty(), config.filePath());
    }

    @Test
    void labelsAreTheContractNames() {
        assertEquals(
                List.of("lru", "cbc-offheap", "cbc-onheap", "cbc-file", "meta-only"),
                Arrays.stream(CacheDeploy.values()).map(CacheDeploy::label).toList());
        assertEquals(
                List.of("copy", "zero-copy"),
                Arrays.stream(ReadPathMode.values()).map(ReadPathMode::label).toList());
        for (CacheDeploy d : CacheDeploy.values()) {
            assertEquals(d, CacheDeploy.fromLabel(d.label()));
        }
        for (ReadPathMode m : ReadPathMode.values()) {
            assertEquals(m, ReadPathMode.fromLabel(m.label()));
        }
        assertEquals(IOEngineType.FILE, IOEngineType.fromLabel("file"));
        assertEquals(Optional.of(IOEngineType.HEAP), CacheDeploy.CBC_ONHEAP.l2Engine());
        assertEquals(Optional.empty(), CacheDeploy.META_ONLY.l2Engine());
    }

    @Test
    void unknownNamesListTheAcceptedOnes() {
        String deploy = failure(() -> CacheDeploy.fromLabel("cbc"));
        assertTrue(
                deploy.contains("'cbc'") && deploy.contains("lru, cbc-offheap, cbc-onheap, cbc-file, meta-only"),
                deploy);
        String engine = failure(() -> IOEngineType.fromLabel("mmap"));
        assertTrue(engine.contains("'mmap'") && engine.contains("offheap, heap, file"), engine);
        String mode = failure(() -> ReadPathMode.fromLabel("zerocopy"));
        assertTrue(mode.contains("copy, zero-copy"), mode);
    }

    @Test
    void sizesParseWithBinarySuffixes() {
        assertEquals(65536, CacheConfig.parseSize("65536"));
        assertEquals(64 << 10, CacheConfig.parseSize("64k"));
        assertEquals(64 << 10, CacheConfig.parseSize("64K"));
        assertEquals(2L << 20, CacheConfig.parseSize(" 2m "));
        assertEquals(1L << 30, CacheConfig.parseSize("1g"));
        assertEquals(1L << 30, CacheConfig.parseSize("1GB"));
        assertEquals(3L << 40, CacheConfig.parseSize("3t"));
        for (String bad : new String[] {"", "k", "abc", "1.5g", "-1", "12x", "99999999999t"}) {
            String message = failure(() -> CacheConfig.parseSize(bad));
            assertTrue(message.contains("'" + bad + "'"), message);
        }
    }

    @Test
    void anL2SmallerThanOneBucketIsRefused() {
        String message = failure(() -> CacheConfig.builder().l2Size(1 << 20).build());
        assertTrue(
                message.contains("smaller than one bucket") && message.contains(String.valueOf(4 * 513 * 1024)),
                message);
        assertTrue(message.contains("raise the L2 size"), message);
        // the deploys without L2 ignore it
        assertEquals(
                1 << 20,
                CacheConfig.builder()
                        .deploy(CacheDeploy.LRU)
                        .l2Size(1 << 20)
                        .build()
                        .l2Size());
        // smaller classes make smaller buckets
        CacheConfig small =
                CacheConfig.builder().l2Size(1 << 20).bucketSizes(4096, 65536).build();
        assertEquals(1 << 20, small.l2Size());
    }

    @Test
    void anIoEngineMustAgreeWithTheDeploy() {
        String mismatch = failure(() -> CacheConfig.builder()
                .deploy(CacheDeploy.CBC_OFFHEAP)
                .ioEngine(IOEngineType.HEAP)
                .build());
        assertTrue(mismatch.contains("contradicts deploy cbc-offheap"), mismatch);
        String noL2 = failure(() -> CacheConfig.builder()
                .deploy(CacheDeploy.META_ONLY)
                .ioEngine(IOEngineType.FILE)
                .build());
        assertTrue(noL2.contains("has no L2"), noL2);
        CacheConfig agreeing = CacheConfig.builder()
                .deploy(CacheDeploy.CBC_FILE)
                .ioEngine(IOEngineType.FILE)
                .build();
        assertEquals(Optional.of(IOEngineType.FILE), agreeing.ioEngine());
    }

    @Test
    void otherBadSettingsAreExplained() {
        assertTrue(failure(() -> CacheConfig.builder().l1Size(0).build()).contains("L1 size must be positive"));
        assertTrue(failure(() -> CacheConfig.builder().bucketSizes(8192, 4096).build())
                .contains("ascending"));
    }

    @Test
    void propertiesSetEverySetting() {
        CacheConfig config = CacheConfig.fromProperties(Map.of(
                "cache.deploy", "cbc-file",
                "cache.l1.size", "8m",
                "cache.l2.size", "64m",
                "cache.l2.ioengine", "file",
                "cache.l2.file", "/dev/shm/x.cache",
                "cache.l2.read-path", "copy",
                "cache.l2.bucket-sizes", "5k, 9k,65k",
                "server.port", "8080"));
        assertEquals(CacheDeploy.CBC_FILE, config.deploy());
        assertEquals(8L << 20, config.l1Size());
        assertEquals(64L << 20, config.l2Size());
        assertEquals(Optional.of(Path.of("/dev/shm/x.cache")), config.filePath());
        assertEquals(ReadPathMode.COPY, config.readPathMode());
        assertArrayEquals(new int[] {5 << 10, 9 << 10, 65 << 10}, config.bucketSizes());
        assertTrue(config.toString().contains("cbc-file"), config.toString());
    }

    @Test
    void badPropertiesNameTheKey() {
        String unknown = failure(() -> CacheConfig.fromProperties(Map.of("cache.l2.sise", "1g")));
        assertTrue(unknown.contains("cache.l2.sise") && unknown.contains("cache.l2.size"), unknown);
        String badValue = failure(() -> CacheConfig.fromProperties(Map.of("cache.l2.ioengine", "mmap")));
        assertTrue(badValue.startsWith("cache.l2.ioengine=mmap: unknown io engine"), badValue);
    }
}
