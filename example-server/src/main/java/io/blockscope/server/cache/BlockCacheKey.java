package io.blockscope.server.cache;

/**
 * Names a block: the store file it comes from and its offset in that file.
 * Immutable, with the hash computed once because keys are hashed on every cache lookup.
 */
public final class BlockCacheKey {

    private final String fileName;
    private final long offset;
    private final int hash;

    public BlockCacheKey(String fileName, long offset) {
        this.fileName = fileName;
        this.offset = offset;
        this.hash = 31 * fileName.hashCode() + Long.hashCode(offset);
    }

    public String fileName() {
        return fileName;
    }

    public long offset() {
        return offset;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockCacheKey k && k.hash == hash && k.offset == offset && k.fileName.equals(fileName);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return fileName + "@" + offset;
    }
}
