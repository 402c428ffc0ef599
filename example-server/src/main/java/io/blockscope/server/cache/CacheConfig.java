package io.blockscope.server.cache;

import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.IOEngineType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How to build the server's block cache: the deploy, the tier sizes, and the L2's engine, file,
 * read-path mode and block-size classes. Immutable; made with {@link #builder()} or
 * {@link #fromProperties}, validated by {@link Builder#build()} with messages that say what to fix.
 *
 * <p>In the {@code lru} deploy, {@link #l1Size()} is the size of the only cache. The L2 settings
 * apply to the {@code cbc-*} deploys only and are ignored by the others.
 */
public final class CacheConfig {

    public static final long DEFAULT_L1_SIZE = 64L << 20;
    public static final long DEFAULT_L2_SIZE = 1L << 30;

    /** Keys of {@link #fromProperties}; values as on the command line ({@code 64m}, {@code zero-copy}, ...). */
    public static final String DEPLOY = "cache.deploy";

    public static final String L1_SIZE = "cache.l1.size";
    public static final String L2_SIZE = "cache.l2.size";
    public static final String IO_ENGINE = "cache.l2.ioengine";
    public static final String FILE_PATH = "cache.l2.file";
    public static final String READ_PATH = "cache.l2.read-path";
    public static final String BUCKET_SIZES = "cache.l2.bucket-sizes";
    private static final List<String> KEYS =
            List.of(DEPLOY, L1_SIZE, L2_SIZE, IO_ENGINE, FILE_PATH, READ_PATH, BUCKET_SIZES);

    private final CacheDeploy deploy;
    private final long l1Size;
    private final long l2Size;
    private final Path filePath;
    private final ReadPathMode readPathMode;
    private final int[] bucketSizes;

    private CacheConfig(Builder b) {
        this.deploy = b.deploy;
        this.l1Size = b.l1Size;
        this.l2Size = b.l2Size;
        this.filePath = b.filePath;
        this.readPathMode = b.readPathMode;
        this.bucketSizes = b.bucketSizes.clone();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The defaults: {@code cbc-offheap}, 64 MB L1, 1 GB L2, zero-copy, HBase's size classes. */
    public static CacheConfig defaults() {
        return builder().build();
    }

    public CacheDeploy deploy() {
        return deploy;
    }

    public long l1Size() {
        return l1Size;
    }

    public long l2Size() {
        return l2Size;
    }

    /** The L2 engine, which the deploy decides; empty for deploys without L2. */
    public Optional<IOEngineType> ioEngine() {
        return deploy.l2Engine();
    }

    /**
     * Where the {@code file} engine keeps its data: a file (created if missing), or a directory in
     * which a fresh file is made and deleted at shutdown. Empty: a fresh file in {@code /dev/shm}
     * when it is writable, else in {@code java.io.tmpdir}.
     */
    public Optional<Path> filePath() {
        return Optional.ofNullable(filePath);
    }

    public ReadPathMode readPathMode() {
        return readPathMode;
    }

    /** Block-size classes of the L2 bucket allocator, ascending (a copy). */
    public int[] bucketSizes() {
        return bucketSizes.clone();
    }

    /**
     * A config from {@code cache.*} entries (other keys are ignored, so a server config file can be
     * passed whole). Keys: {@value #DEPLOY}, {@value #L1_SIZE}, {@value #L2_SIZE}, {@value #IO_ENGINE},
     * {@value #FILE_PATH}, {@value #READ_PATH}, {@value #BUCKET_SIZES} (comma-separated sizes).
     *
     * @throws IllegalArgumentException naming the key and the bad value
     */
    public static CacheConfig fromProperties(Map<String, String> properties) {
        Builder b = builder();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("cache.")) {
                continue;
            }
            String value = e.getValue().trim();
            try {
                switch (key) {
                    case DEPLOY -> b.deploy(CacheDeploy.fromLabel(value));
                    case L1_SIZE -> b.l1Size(parseSize(value));
                    case L2_SIZE -> b.l2Size(parseSize(value));
                    case IO_ENGINE -> b.ioEngine(IOEngineType.fromLabel(value));
                    case FILE_PATH -> b.filePath(Path.of(value));
                    case READ_PATH -> b.readPathMode(ReadPathMode.fromLabel(value));
                    case BUCKET_SIZES ->
                        b.bucketSizes(Arrays.stream(value.split(","))
                                .mapToInt(s -> Math.toIntExact(parseSize(s.trim())))
                                .toArray());
                    default ->
                        throw new IllegalArgumentException(
                                "unknown key: the cache keys are " + String.join(", ", KEYS));
                }
            } catch (IllegalArgumentException | ArithmeticException ex) {
                throw new IllegalArgumentException(key + "=" + value + ": " + ex.getMessage(), ex);
            }
        }
        return b.build();
    }

    /**
     * Parses a byte size: digits with an optional binary suffix {@code k}, {@code m}, {@code g} or
     * {@code t} (any case, an optional trailing {@code b}): {@code 65536}, {@code 64k}, {@code 1g}.
     */
    public static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                case 't' -> shift = 40;
                default -> shift = -1;
            }
            if (shift >= 0) {
                s = s.substring(0, s.length() - 1);
            } else {
                shift = 0;
            }
        }
        long number;
        try {
            number = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size: write digits with an optional"
                    + " k, m, g or t suffix, like 65536, 64k or 1g");
        }
        if (number < 0 || (shift > 0 && number > (Long.MAX_VALUE >> shift))) {
            throw new IllegalArgumentException("'" + text + "' is not a valid byte size");
        }
        return number << shift;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("CacheConfig[deploy=")
                .append(deploy.label())
                .append(", l1=")
                .append(l1Size);
        if (deploy.hasL2()) {
            s.append(", l2=")
                    .append(l2Size)
                    .append(" (")
                    .append(deploy.l2Engine().orElseThrow().label())
                    .append(", ")
                    .append(readPathMode.label())
                    .append(")");
            if (filePath != null && deploy == CacheDeploy.CBC_FILE) {
                s.append(", file=").append(filePath);
            }
            s.append(", bucketSizes=")
                    .append(Arrays.stream(bucketSizes)
                            .mapToObj(Integer::toString)
                            .collect(Collectors.joining(",")));
        }
        return s.append(']').toString();
    }

    /** Collects and validates settings; every one has a default. */
    public static final class Builder {
        private CacheDeploy deploy = CacheDeploy.CBC_OFFHEAP;
        private long l1Size = DEFAULT_L1_SIZE;
        private long l2Size = DEFAULT_L2_SIZE;
        private IOEngineType ioEngine;
        private Path filePath;
        private ReadPathMode readPathMode = ReadPathMode.ZERO_COPY;
        private int[] bucketSizes = BucketAllocator.defaultSlotSizes();

        private Builder() {}

        public Builder deploy(CacheDeploy deploy) {
            this.deploy = Objects.requireNonNull(deploy, "deploy");
            return this;
        }

        /** Size of the on-heap L1 (of the only cache, for {@code lru}). */
        public Builder l1Size(long bytes) {
            this.l1Size = bytes;
            return this;
        }

        /** Size of the L2 bucket cache; whole buckets of it are used. */
        public Builder l2Size(long bytes) {
            this.l2Size = bytes;
            return this;
        }

        /**
         * The L2 engine. The deploy already decides it, so this is a cross-check for configurations
         * that name both: a mismatch fails {@link #build()}.
         */
        public Builder ioEngine(IOEngineType engine) {
            this.ioEngine = Objects.requireNonNull(engine, "ioEngine");
            return this;
        }

        /** See {@link CacheConfig#filePath()}; used by {@code cbc-file} only. */
        public Builder filePath(Path path) {
            this.filePath = Objects.requireNonNull(path, "filePath");
            return this;
        }

        public Builder readPathMode(ReadPathMode mode) {
            this.readPathMode = Objects.requireNonNull(mode, "readPathMode");
            return this;
        }

        /** Block-size classes in bytes, strictly ascending. */
        public Builder bucketSizes(int... sizes) {
            this.bucketSizes = sizes.clone();
            return this;
        }

        /** @throws IllegalArgumentException saying which setting is wrong and how to fix it */
        public CacheConfig build() {
            if (l1Size <= 0) {
                throw new IllegalArgumentException("the L1 size must be positive, got " + l1Size + " bytes");
            }
            if (ioEngine != null && deploy.l2Engine().orElse(null) != ioEngine) {
                throw new IllegalArgumentException(
                        deploy.hasL2()
                                ? "io engine " + ioEngine.label() + " contradicts deploy " + deploy.label()
                                        + " (which uses "
                                        + deploy.l2Engine().orElseThrow().label()
                                        + "): pick the cbc-* deploy of the engine you want"
                                : "deploy " + deploy.label() + " has no L2 cache, so io engine " + ioEngine.label()
                                        + " cannot apply: pick a cbc-* deploy or drop the io engine");
            }
            if (deploy.hasL2()) {
                long bucketSize = BucketAllocator.bucketSizeFor(bucketSizes);
                if (l2Size < bucketSize) {
                    throw new IllegalArgumentException("the L2 size (" + l2Size + " bytes) is smaller than one bucket ("
                            + bucketSize + " bytes = " + BucketAllocator.LARGEST_SLOTS_PER_BUCKET
                            + " x the largest bucket size class " + bucketSizes[bucketSizes.length - 1]
                            + "): raise the L2 size or lower the largest class");
                }
            }
            return new CacheConfig(this);
        }
    }
}
