/**
 * Owns the store file format: writer, reader, index and bloom blocks, and the corrupt-file error
 * that names file and offset. May depend on cache, cell and buffer.
 */
package io.blockscope.server.storefile;
