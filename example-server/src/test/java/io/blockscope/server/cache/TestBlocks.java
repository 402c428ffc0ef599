package io.blockscope.server.cache;

import io.blockscope.server.buffer.ByteBuff;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * Self-checking blocks for cache tests: {@code [8-byte tag][random bytes][4-byte CRC32C of all before]}.
 * The tag names the block, so a slot that was freed and refilled by another block of the same length
 * fails {@link #intact} for the first block's key, not just a checksum.
 */
public final class TestBlocks {

    /** Smallest block: tag plus checksum. */
    public static final int MIN_LENGTH = Long.BYTES + Integer.BYTES;

    private TestBlocks() {}

    public static BlockCacheKey key(int id) {
        return new BlockCacheKey("store-" + (id % 3), id * 65_536L);
    }

    /** An exclusive heap block of {@code length} bytes tagged with {@code tag}; same tag and length, same bytes. */
    public static Block block(BlockType type, long tag, int length) {
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("a test block needs at least " + MIN_LENGTH + " bytes");
        }
        byte[] bytes = new byte[length];
        new SplittableRandom(tag * 31 + length).nextBytes(bytes);
        ByteBuff data = ByteBuff.wrap(bytes);
        data.putLong(0, tag);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length - Integer.BYTES);
        data.putInt(length - Integer.BYTES, (int) crc.getValue());
        return new Block(type, data, Block.MemoryType.EXCLUSIVE);
    }

    public static Block dataBlock(long tag, int length) {
        return block(BlockType.DATA, tag, length);
    }

    /** True when {@code block} carries {@code tag} and its checksum matches its bytes. */
    public static boolean intact(Block block, long tag) {
        ByteBuff data = block.data();
        int length = data.capacity();
        if (length < MIN_LENGTH || data.getLong(0) != tag) {
            return false;
        }
        CRC32C crc = new CRC32C();
        data.updateChecksum(crc, 0, length - Integer.BYTES);
        return (int) crc.getValue() == data.getInt(length - Integer.BYTES);
    }

    /** A heap copy of the block's bytes. */
    public static byte[] bytes(Block block) {
        return block.data().toBytes(0, block.length());
    }
}
