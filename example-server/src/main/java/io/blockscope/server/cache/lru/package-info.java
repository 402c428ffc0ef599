/**
 * Owns the on-heap LRU L1 cache. May depend on cache and buffer.
 */
package io.blockscope.server.cache.lru;
