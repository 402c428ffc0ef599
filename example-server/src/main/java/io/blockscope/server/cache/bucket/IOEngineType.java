package io.blockscope.server.cache.bucket;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Where a bucket cache keeps its blocks (HBase's {@code hbase.bucketcache.ioengine}). */
public enum IOEngineType {
    /** Direct buffers of 4 MB, outside the Java heap: hits can be served without a copy. */
    OFFHEAP("offheap"),
    /** Heap buffers of 4 MB: one large, long-lived heap allocation to the GC. */
    HEAP("heap"),
    /** A file, ideally on tmpfs or a fast SSD: every hit is read into a fresh heap array. */
    FILE("file");

    private final String label;

    IOEngineType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The type for {@code label}, or an {@link IllegalArgumentException} that lists the accepted ones. */
    public static IOEngineType fromLabel(String label) {
        for (IOEngineType type : values()) {
            if (type.label.equals(label)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown io engine '" + label + "': use one of "
                + Arrays.stream(values()).map(IOEngineType::label).collect(Collectors.joining(", ")));
    }
}
