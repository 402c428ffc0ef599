/**
 * Owns CombinedBlockCache, the L1 + L2 deploy of an LRU in front of a BucketCache. May depend on
 * the cache package and its siblings.
 */
package io.blockscope.server.cache.combined;
