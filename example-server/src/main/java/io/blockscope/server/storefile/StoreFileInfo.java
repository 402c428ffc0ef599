package io.blockscope.server.storefile;

/**
 * What a store file holds, from its trailer.
 *
 * @param cellCount            cells in the file
 * @param rowCount             distinct rows
 * @param dataBlockCount       data blocks
 * @param leafIndexBlockCount  leaf index blocks (the root index has one entry per leaf)
 * @param bloomChunkCount      bloom filter chunks
 * @param dataSectionBytes     bytes of the data section (headers included)
 * @param fileSize             bytes of the whole file
 */
public record StoreFileInfo(
        long cellCount,
        long rowCount,
        int dataBlockCount,
        int leafIndexBlockCount,
        int bloomChunkCount,
        long dataSectionBytes,
        long fileSize) {}
