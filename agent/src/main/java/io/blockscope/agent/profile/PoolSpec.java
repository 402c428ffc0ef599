package io.blockscope.agent.profile;

import java.util.Objects;

/**
 * How a heap-fallback probe tells why an allocation went to the heap, and how it reads the captured
 * allocator at scrape time. {@code pooled} and {@code minPooledSize} are compiled into the advice
 * (read at the instrumented method; absent: always pooled, no minimal size); the rest are read
 * reflectively on the allocator at scrape time and may be null when the server has no such figure.
 * Each value starts at the allocator ({@code this}).
 *
 * @param pooled         whether the allocator pools at all; false: every heap allocation is
 *                       {@code pool_disabled}
 * @param minPooledSize  the smallest request the pool serves; smaller ones are {@code below_min_size}
 * @param bufferSize     bytes of one pooled buffer
 * @param maxBuffers     the most buffers the pool will create
 * @param createdBuffers buffers the pool has created so far (free or in use)
 * @param freeBuffers    created buffers back in the pool
 * @param heapBytes      the server's own count of bytes it allocated on the heap
 * @param poolBytes      the server's own count of bytes it served from the pool
 */
public final class PoolSpec {
    private final ValueRef pooled;
    private final ValueRef minPooledSize;
    private final ValueRef bufferSize;
    private final ValueRef maxBuffers;
    private final ValueRef createdBuffers;
    private final ValueRef freeBuffers;
    private final ValueRef heapBytes;
    private final ValueRef poolBytes;

    public PoolSpec(
            ValueRef pooled,
            ValueRef minPooledSize,
            ValueRef bufferSize,
            ValueRef maxBuffers,
            ValueRef createdBuffers,
            ValueRef freeBuffers,
            ValueRef heapBytes,
            ValueRef poolBytes) {
        this.pooled = pooled;
        this.minPooledSize = minPooledSize;
        this.bufferSize = bufferSize;
        this.maxBuffers = maxBuffers;
        this.createdBuffers = createdBuffers;
        this.freeBuffers = freeBuffers;
        this.heapBytes = heapBytes;
        this.poolBytes = poolBytes;
    }

    public ValueRef pooled() {
        return pooled;
    }

    public ValueRef minPooledSize() {
        return minPooledSize;
    }

    public ValueRef bufferSize() {
        return bufferSize;
    }

    public ValueRef maxBuffers() {
        return maxBuffers;
    }

    public ValueRef createdBuffers() {
        return createdBuffers;
    }

    public ValueRef freeBuffers() {
        return freeBuffers;
    }

    public ValueRef heapBytes() {
        return heapBytes;
    }

    public ValueRef poolBytes() {
        return poolBytes;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof PoolSpec)) {
            return false;
        }
        PoolSpec that = (PoolSpec) o;
        return Objects.equals(pooled, that.pooled)
                && Objects.equals(minPooledSize, that.minPooledSize)
                && Objects.equals(bufferSize, that.bufferSize)
                && Objects.equals(maxBuffers, that.maxBuffers)
                && Objects.equals(createdBuffers, that.createdBuffers)
                && Objects.equals(freeBuffers, that.freeBuffers)
                && Objects.equals(heapBytes, that.heapBytes)
                && Objects.equals(poolBytes, that.poolBytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                pooled, minPooledSize, bufferSize, maxBuffers, createdBuffers, freeBuffers, heapBytes, poolBytes);
    }

    @Override
    public String toString() {
        return "PoolSpec[pooled=" + pooled + ", minPooledSize=" + minPooledSize + ", bufferSize=" + bufferSize
                + ", maxBuffers=" + maxBuffers + ", createdBuffers=" + createdBuffers + ", freeBuffers="
                + freeBuffers + ", heapBytes=" + heapBytes + ", poolBytes=" + poolBytes + "]";
    }
}
