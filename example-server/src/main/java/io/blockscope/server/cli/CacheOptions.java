package io.blockscope.server.cli;

import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.region.CacheSizing;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The block cache settings of {@code serve}. */
final class CacheOptions {

    @Option(
            names = "--deploy",
            paramLabel = "lru|cbc-offheap|cbc-onheap|cbc-file|meta-only",
            defaultValue = "cbc-offheap",
            converter = Converters.Deploy.class,
            description =
                    "Block cache deploy: LruBlockCache only, CombinedBlockCache with an offheap / heap / file L2, or meta "
                            + "blocks only. Default: ${DEFAULT-VALUE}.")
    CacheDeploy deploy;

    @Option(
            names = "--read-path",
            paramLabel = "zero-copy|copy",
            defaultValue = "zero-copy",
            converter = Converters.ReadPath.class,
            description =
                    "How L2 hits reach the reader: served in place (zero-copy, HBASE-11425) or copied whole onto the heap "
                            + "(copy, the old path). Default: ${DEFAULT-VALUE}.")
    ReadPathMode readPath;

    @Option(
            names = "--l1-size",
            paramLabel = "SIZE|auto",
            defaultValue = "auto",
            converter = Converters.SizeOrAuto.class,
            description =
                    "On-heap L1 (LruBlockCache) size, e.g. 64m. auto: 64m, or the whole table for the lru deploy. "
                            + "Default: ${DEFAULT-VALUE}.")
    long l1Size;

    @Option(
            names = "--l2-size",
            paramLabel = "SIZE|auto",
            defaultValue = "auto",
            converter = Converters.SizeOrAuto.class,
            description =
                    "L2 (BucketCache) size, e.g. 1g. auto: enough for every data block of the served tables (at least 64m); "
                            + "offheap L2 counts against -XX:MaxDirectMemorySize, whose default is -Xmx. Default: ${DEFAULT-VALUE}.")
    long l2Size;

    @Option(
            names = "--cache-file",
            paramLabel = "PATH",
            description =
                    "File (or directory for a fresh file) of the cbc-file L2. Default: a new file in /dev/shm, else the temp dir.")
    Path cacheFile;

    @Option(
            names = "--bucket-sizes",
            paramLabel = "SIZE",
            split = ",",
            converter = Converters.Size.class,
            description = "L2 block-size classes, ascending. Default: HBase's 5k, 9k, 17k, 33k, 41k, ... 513k.")
    List<Long> bucketSizes;

    /** The cache config for these options, auto sizes computed for {@code footprint}. */
    CacheConfig config(CacheDeploy deploy, ReadPathMode readPath, CacheSizing.Footprint footprint) {
        int[] classes = bucketSizes == null
                ? BucketAllocator.defaultSlotSizes()
                : bucketSizes.stream().mapToInt(Math::toIntExact).toArray();
        CacheConfig.Builder b = CacheConfig.builder()
                .deploy(deploy)
                .readPathMode(readPath)
                .bucketSizes(classes)
                .l1Size(l1Size > 0 ? l1Size : CacheSizing.l1For(footprint, deploy == CacheDeploy.LRU))
                .l2Size(l2Size > 0 ? l2Size : CacheSizing.l2For(footprint, classes));
        if (cacheFile != null) {
            b.filePath(cacheFile);
        }
        return b.build();
    }

    static String describe(CacheConfig config) {
        return config.deploy().label()
                + (config.deploy().hasL2()
                        ? " " + config.readPathMode().label() + ", L2 " + megabytes(config.l2Size())
                        : "")
                + ", L1 " + megabytes(config.l1Size());
    }

    private static String megabytes(long bytes) {
        return String.format("%.0f MB", bytes / 1048576.0);
    }
}
