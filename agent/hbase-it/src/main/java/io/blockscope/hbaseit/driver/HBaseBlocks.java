package io.blockscope.hbaseit.driver;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;

/**
 * The two block-ownership models of HBase 2.x. Up to 2.2 a reader gives a cached block back with
 * {@code BlockCache#returnBlock}; from 2.3 on (HBASE-21879) blocks are reference counted and the
 * reader calls {@code release()}. Block construction changed at the same time.
 */
interface HBaseBlocks {

    /** A heap block whose buffer (header included) is {@code bytes} long. */
    Cacheable newBlock(BlockType type, int bytes, long fileOffset);

    /** A DATA block on the heap. */
    default Cacheable newDataBlock(int bytes, long fileOffset) {
        return newBlock(BlockType.DATA, bytes, fileOffset);
    }

    /**
     * A DATA block as a RegionServer reads it from a store file: from 2.3 on into a pooled offheap
     * buffer (shared memory, reference counted, released by the reader), before that on the heap.
     */
    Cacheable readFromDisk(int bytes, long fileOffset);

    /** A CombinedBlockCache: meta blocks in {@code l1}, data blocks in {@code l2}. */
    BlockCache combine(LruBlockCache l1, BlockCache l2);

    /**
     * Whether a reader holds a reference on {@code block} that it must give back: only blocks in
     * shared (cache) memory. HFile scanners give back nothing else.
     */
    boolean takesReference(Cacheable block);

    /** Gives back the reference a {@code getBlock} hit took. */
    void giveBack(BlockCache cache, BlockCacheKey key, Cacheable block);

    /** Drops the creator's own reference once the cache has its copy (a no-op before 2.3). */
    void dropCreatorReference(Cacheable block);

    /** {@code returnBlock} or {@code refcount}, for the statistics line. */
    String model();

    static HBaseBlocks detect() {
        boolean refCounted = Arrays.stream(Cacheable.class.getMethods())
                .anyMatch(m -> m.getName().equals("release") && m.getParameterCount() == 0);
        return refCounted ? new RefCountedBlocks() : new ReturnBlockBlocks();
    }

    /** Block-size-independent bytes: header first, then a pattern a reader can check. */
    final class Payload {
        /** HFile block header without HBase checksums: magic, two sizes, previous block offset. */
        static final int HEADER_BYTES = 24;

        private Payload() {}

        static ByteBuffer of(BlockType type, int bytes, long fileOffset) {
            if (bytes <= HEADER_BYTES) {
                throw new IllegalArgumentException("block of " + bytes + " bytes has no room after its header");
            }
            ByteBuffer buf = ByteBuffer.allocate(bytes);
            type.write(buf);
            buf.putInt(bytes - HEADER_BYTES);
            buf.putInt(bytes - HEADER_BYTES);
            buf.putLong(-1L);
            while (buf.hasRemaining()) {
                buf.put(expected(fileOffset, buf.position()));
            }
            buf.rewind();
            return buf;
        }

        /** The byte at {@code index} of the block cached at {@code fileOffset}. */
        static byte expected(long fileOffset, int index) {
            return (byte) (index * 31L + fileOffset);
        }
    }
}
