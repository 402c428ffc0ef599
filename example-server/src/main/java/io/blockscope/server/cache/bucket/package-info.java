/**
 * Owns the BucketCache: 4 MB buffers split into buckets of block-size classes, the allocator,
 * and the heap, offheap and file IO engines. May depend on cache and buffer.
 */
package io.blockscope.server.cache.bucket;
