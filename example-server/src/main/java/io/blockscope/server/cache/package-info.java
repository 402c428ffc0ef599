/**
 * Owns the block cache contract (BlockCache, refcounted CacheEntry, statistics, priorities) and
 * builds the concrete deploys from CacheConfig. May depend on buffer and on its own sub-packages.
 */
package io.blockscope.server.cache;
