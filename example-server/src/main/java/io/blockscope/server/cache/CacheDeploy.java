package io.blockscope.server.cache;

import io.blockscope.server.cache.bucket.IOEngineType;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The five block cache deploys of "Comparing BlockCache Deploys" (HBASE-11323). */
public enum CacheDeploy {
    /** One on-heap LruBlockCache holds every block. */
    LRU("lru", null),
    /** Meta blocks in an on-heap L1, data blocks in an offheap bucket cache. */
    CBC_OFFHEAP("cbc-offheap", IOEngineType.OFFHEAP),
    /** Meta blocks in L1, data blocks in a bucket cache of heap buffers. */
    CBC_ONHEAP("cbc-onheap", IOEngineType.HEAP),
    /** Meta blocks in L1, data blocks in a bucket cache file (tmpfs or SSD). */
    CBC_FILE("cbc-file", IOEngineType.FILE),
    /** Meta blocks in L1; data blocks are never cached and always read from the store files. */
    META_ONLY("meta-only", null);

    private final String label;
    private final IOEngineType l2Engine;

    CacheDeploy(String label, IOEngineType l2Engine) {
        this.label = label;
        this.l2Engine = l2Engine;
    }

    /** The name used on command lines, in config files and in reports. */
    public String label() {
        return label;
    }

    /** The io engine of this deploy's L2 bucket cache; empty when it has none. */
    public Optional<IOEngineType> l2Engine() {
        return Optional.ofNullable(l2Engine);
    }

    public boolean hasL2() {
        return l2Engine != null;
    }

    /** The deploy for {@code label}, or an {@link IllegalArgumentException} that lists the accepted ones. */
    public static CacheDeploy fromLabel(String label) {
        for (CacheDeploy deploy : values()) {
            if (deploy.label.equals(label)) {
                return deploy;
            }
        }
        throw new IllegalArgumentException("unknown cache deploy '" + label + "': use one of "
                + Arrays.stream(values()).map(CacheDeploy::label).collect(Collectors.joining(", ")));
    }
}
