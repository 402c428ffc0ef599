package io.blockscope.server.pe;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCaches;
import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.CacheStats;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.CacheDescription;
import io.blockscope.server.region.ReadResult;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.ScanSpec;
import io.blockscope.server.region.Tables;
import io.blockscope.server.rpc.CellBlock;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** A region opened in this JVM over its own block cache: measures the server-side read cost alone. */
final class InProcessTarget implements ReadTarget {

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final CacheConfig config;
    private final BlockCache cache;
    private final Tables tables;
    private final Region region;

    InProcessTarget(Path dataDir, String table, CacheConfig config) throws Exception {
        this.config = config;
        this.cache = BlockCaches.create(config);
        // No block is checked out here; on any failure (Error included) the tables and the cache are
        // closed in finally, so nothing is left reserved.
        Tables opened = null;
        boolean ready = false;
        try {
            opened = Tables.open(dataDir, cache);
            this.region = opened.require(table);
            ready = true;
        } finally {
            if (!ready) {
                try {
                    if (opened != null) {
                        opened.close();
                    }
                } finally {
                    cache.shutdown();
                }
            }
        }
        this.tables = opened;
    }

    @Override
    public String readPath() {
        return CacheDescription.readPath(cache);
    }

    @Override
    public String deploy() {
        return config.deploy().label();
    }

    @Override
    public String url() {
        return null;
    }

    @Override
    public long tableRows() {
        return region.manifest().spec().rows();
    }

    @Override
    public String loadIntoCache() throws java.io.IOException {
        region.warm();
        String summary = CacheDescription.summary(cache) + ", data blocks in table: " + region.dataBlockCount();
        long cachedData = BlockCaches.l2Of(cache)
                .map(BlockCache::blockCount)
                .orElse(config.deploy() == CacheDeploy.LRU ? cache.blockCount() : region.dataBlockCount());
        if (cachedData < region.dataBlockCount()) {
            summary +=
                    "\n[pe] WARNING: the cache holds only " + cachedData + " of the table's " + region.dataBlockCount()
                            + " data blocks, so reads will miss: raise --l1-size/--l2-size (or -XX:MaxDirectMemorySize)";
        }
        return summary;
    }

    @Override
    public Session newSession(WorkloadShape shape, long seed) {
        long rows = shape.rowsOf(tableRows());
        return switch (shape.workload()) {
            case MULTIGET, RANDOM_READ -> new GetSession(region, rows, shape.rowsPerOp(), seed);
            case SCAN_RANGE, SCAN_10PCT -> new ScanSession(region, rows, shape.scanRows(), shape.filterSpec(), seed);
        };
    }

    @Override
    public CostSnapshot cost(boolean settleGc) {
        CacheStats stats = cache.getStats();
        return new CostSnapshot(GcPauses.shared().read(settleGc), -1, stats.requestCount(), stats.missCount());
    }

    @Override
    public boolean countsWorkerAllocation() {
        return true;
    }

    /** Blocks the cache has evicted so far (every tier). */
    long evictedBlocks() {
        return cache.getStats().evictedBlockCount();
    }

    /** Data block lookups so far. */
    long dataRequests() {
        return tables.blockSource().dataRequests();
    }

    /** Data blocks read from the store files so far: the misses that reach the disk (or the OS page cache). */
    long dataFileReads() {
        return tables.blockSource().dataFileReads();
    }

    /** The cache's one-line description (sizes, blocks held). */
    String cacheSummary() {
        return CacheDescription.summary(cache);
    }

    @Override
    public long outstandingBlockReferences() {
        return tables.outstandingBlockReferences();
    }

    @Override
    public void close() {
        tables.close();
        cache.shutdown();
    }

    /** Random single gets or multi-gets of {@code batch} rows. */
    private static final class GetSession implements Session {
        private final Region region;
        private final long rows;
        private final byte[][] keys;
        private final SplittableRandom random;
        private final ResultSink sink = new ResultSink();
        private long returned;

        GetSession(Region region, long rows, int batch, long seed) {
            this.region = region;
            this.rows = rows;
            this.keys = new byte[batch][TableSpec.ROW_KEY_LENGTH];
            this.random = new SplittableRandom(seed);
        }

        @Override
        public long execute() throws java.io.IOException {
            for (byte[] key : keys) {
                TableSpec.rowKey(random.nextLong(rows), key, 0);
            }
            ReadResult result = keys.length == 1
                    ? region.get(keys[0], NO_DEADLINE)
                    : region.multiGet(keys, keys.length, NO_DEADLINE);
            try {
                sink.write(result);
                returned += result.rowCount();
            } finally {
                result.release();
            }
            return keys.length;
        }

        @Override
        public long rowsReturned() {
            return returned;
        }
    }

    /** Random range scans of {@code length} rows through a filter. */
    private static final class ScanSession implements Session {
        private final Region region;
        private final long rows;
        private final int length;
        private final FilterSpec filter;
        private final byte[] start = new byte[TableSpec.ROW_KEY_LENGTH];
        private final byte[] stop = new byte[TableSpec.ROW_KEY_LENGTH];
        private final SplittableRandom random;
        private final ResultSink sink = new ResultSink();
        private long returned;

        ScanSession(Region region, long rows, int length, FilterSpec filter, long seed) {
            this.region = region;
            this.rows = rows;
            this.length = length;
            this.filter = filter;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public long execute() throws java.io.IOException {
            long first = random.nextLong(Math.max(1, rows - length + 1));
            TableSpec.rowKey(first, start, 0);
            TableSpec.rowKey(first + length, stop, 0);
            ScanSpec spec = new ScanSpec(start, stop, filter, length, Long.MAX_VALUE, CellBlock::encodedLength);
            ReadResult result = region.scan(spec, NO_DEADLINE);
            try {
                sink.write(result);
                returned += result.rowCount();
                return result.rowsScanned();
            } finally {
                result.release();
            }
        }

        @Override
        public long rowsReturned() {
            return returned;
        }
    }
}
