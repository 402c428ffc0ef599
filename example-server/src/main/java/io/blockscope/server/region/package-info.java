/**
 * Owns a region's read path: gets, multi-gets and scans over store files through the block
 * cache, with leases that return every block they check out. May depend on storefile, filter,
 * load, cache, cell, buffer, config.
 */
package io.blockscope.server.region;
