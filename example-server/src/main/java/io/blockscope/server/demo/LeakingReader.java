package io.blockscope.server.demo;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;
import java.util.List;

/**
 * A background reader with the classic bug: it walks the data blocks of the tables through the
 * block cache, and one checkout in {@code leakOneIn} is never returned. Each leaked block keeps its
 * cache slot pinned, outstanding references climb, and the agent reports the leak at
 * {@link #checkOut}, the acquiring call site.
 *
 * <p>Not thread-safe: one thread runs {@link #readSome}.
 */
final class LeakingReader {

    private final BlockCache cache;
    private final List<StoreFileReader> files;
    private final int leakOneIn;
    private int file;
    private long offset;
    private long checkouts;
    private long leaked;

    LeakingReader(BlockCache cache, List<StoreFileReader> files, int leakOneIn) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no store files to read");
        }
        if (leakOneIn < 1) {
            throw new IllegalArgumentException("leakOneIn must be at least 1, got " + leakOneIn);
        }
        this.cache = cache;
        this.files = files;
        this.leakOneIn = leakOneIn;
        this.offset = files.get(0).firstDataBlockOffset();
    }

    /** Reads the next {@code blocks} data blocks (wrapping around), leaking one in {@code leakOneIn}. */
    void readSome(int blocks) throws IOException {
        for (int i = 0; i < blocks; i++) {
            StoreFileReader reader = files.get(file);
            if (offset < 0) {
                advanceFile();
                continue;
            }
            BlockCacheKey key = reader.keyFor(offset);
            Block block = checkOut(key);
            if (block == null) {
                // A miss: read the block and offer it to the cache, as the read path does.
                Block loaded = reader.readBlock(offset, BlockType.DATA);
                cache.cacheBlock(key, loaded, false);
                offset = reader.nextDataBlockOffset(offset, loaded);
                continue;
            }
            offset = reader.nextDataBlockOffset(offset, block);
            checkouts++;
            if (checkouts % leakOneIn == 0) {
                leaked++; // the bug: this block is never returned
            } else {
                cache.returnBlock(key, block);
            }
        }
    }

    /** The acquiring call site the agent names for the leaked blocks. */
    private Block checkOut(BlockCacheKey key) {
        return cache.getBlock(key, true, false, true);
    }

    private void advanceFile() {
        file = (file + 1) % files.size();
        offset = files.get(file).firstDataBlockOffset();
    }

    int leakOneIn() {
        return leakOneIn;
    }

    long checkouts() {
        return checkouts;
    }

    long leaked() {
        return leaked;
    }
}
