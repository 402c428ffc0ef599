package io.blockscope.server.cache;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How an L2 (bucket cache) hit reaches the reader. */
public enum ReadPathMode {
    /** Before HBASE-11425: every hit copies the whole block onto the heap. */
    COPY("copy"),
    /** HBASE-11425: hits are served straight from the buckets, pinned by a reference count. */
    ZERO_COPY("zero-copy");

    private final String label;

    ReadPathMode(String label) {
        this.label = label;
    }

    /** The name used on command lines, in config files and as a metric label. */
    public String label() {
        return label;
    }

    /** The mode for {@code label}, or an {@link IllegalArgumentException} that lists the accepted ones. */
    public static ReadPathMode fromLabel(String label) {
        for (ReadPathMode mode : values()) {
            if (mode.label.equals(label)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown read-path mode '" + label + "': use one of "
                + Arrays.stream(values()).map(ReadPathMode::label).collect(Collectors.joining(", ")));
    }
}
