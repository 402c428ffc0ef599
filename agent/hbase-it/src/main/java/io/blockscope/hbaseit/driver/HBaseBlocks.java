package io.blockscope.hbaseit.driver;

import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The two block-ownership models of HBase 2.x. Up to 2.2 a reader gives a cached block back with
 * {@code BlockCache#returnBlock}; from 2.3 on (HBASE-21879) blocks are reference counted and the
 * reader calls {@code release()}. Block construction changed at the same time.
 */
interface HBaseBlocks {

    /** A DATA block whose buffer (header included) is {@code bytes} long, built the way a reader would. */
    Cacheable newDataBlock(int bytes, long fileOffset);

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

        private Payload() {
        }

        static ByteBuffer of(int bytes, long fileOffset) {
            if (bytes <= HEADER_BYTES) {
                throw new IllegalArgumentException("block of " + bytes + " bytes has no room after its header");
            }
            ByteBuffer buf = ByteBuffer.allocate(bytes);
            org.apache.hadoop.hbase.io.hfile.BlockType.DATA.write(buf);
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
            return (byte) (index * 31 + fileOffset);
        }
    }
}
