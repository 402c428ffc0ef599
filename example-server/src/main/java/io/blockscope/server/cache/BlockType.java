package io.blockscope.server.cache;

/** What a block holds. Index and bloom blocks are "meta" blocks: a combined cache keeps them in L1. */
public enum BlockType {
    DATA((byte) 'D'),
    INDEX((byte) 'I'),
    BLOOM((byte) 'B');

    private final byte code;

    BlockType(byte code) {
        this.code = code;
    }

    /** The one-byte tag written in block headers. */
    public byte code() {
        return code;
    }

    public boolean isMeta() {
        return this != DATA;
    }

    /** The type for a header tag, or null when the tag is not a known type (a corrupt block). */
    public static BlockType fromCode(byte code) {
        for (BlockType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
