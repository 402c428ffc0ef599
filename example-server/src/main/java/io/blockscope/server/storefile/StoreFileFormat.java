package io.blockscope.server.storefile;

import java.nio.charset.StandardCharsets;

/**
 * The on-disk layout of a store file: an immutable, sorted run of cells.
 *
 * <pre>
 *  DATA block ...            cells in {@link io.blockscope.server.cell.KeyValueFormat}, sorted, back to back
 *  leaf INDEX block ...      one entry per data block: its first row, offset and on-disk size
 *  BLOOM block ...           per-row bloom filter chunks, each covering a run of consecutive rows
 *  root INDEX block          one entry per leaf index block (its first row)
 *  bloom INDEX block         one entry per bloom chunk (its first row)
 *  trailer                   fixed {@value #TRAILER_SIZE} bytes at the very end
 * </pre>
 *
 * <b>Block</b> ({@value #BLOCK_HEADER_SIZE}-byte header, then the payload):
 * <pre>
 *  0  1  type code ({@link io.blockscope.server.cache.BlockType#code()}): doubles as the block magic
 *  1  4  payload length
 *  5  4  CRC32C of the type code, the payload length and the payload
 * </pre>
 * Data blocks sit back to back from offset 0, so the data block after the one at {@code offset}
 * starts at {@code offset + header + payload length}: a scan walks the data section without the index.
 *
 * <p><b>Index payload</b> (root, leaf and bloom index alike):
 * {@code int n; int[n] entry starts (within the payload); n x (long block offset, int block size on
 * disk, short row length, row)}. The entry-start table makes the entries binary-searchable in place.
 *
 * <p><b>Bloom chunk payload</b>: {@code int hash count; int bit count; bits} (bit {@code i} is
 * {@code 1 << (i & 7)} of byte {@code i >>> 3}). A row is looked up in the last chunk whose first row
 * is at or before it; see {@link RowBloom} for the hashing.
 *
 * <p><b>Trailer</b> (big-endian):
 * <pre>
 *  0   8  magic "BSCOPESF"
 *  8   4  version ({@value #VERSION})
 *  12  4  data block count
 *  16  4  leaf index block count
 *  20  4  bloom chunk count
 *  24  8  end of the data section (offset of the first non-data block)
 *  32  8  root index block offset
 *  40  8  bloom index block offset
 *  48  8  cell count
 *  56  8  row count
 *  64  4  reserved (0)
 *  68  4  CRC32C of bytes 0..67
 * </pre>
 * Sections are in file order, so {@code dataEnd <= rootIndex < bloomIndex < trailer}; a reader
 * never lets a block run out of its section.
 */
final class StoreFileFormat {

    static final int BLOCK_HEADER_SIZE = 9;
    /** Bytes of the header the block checksum covers: the type code and the payload length. */
    static final int BLOCK_HEADER_CHECKED = 5;

    static final int TRAILER_SIZE = 72;
    static final byte[] TRAILER_MAGIC = "BSCOPESF".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    /** Fixed bytes of an index entry besides its row: block offset, block size, row length. */
    static final int INDEX_ENTRY_OVERHEAD = Long.BYTES + Integer.BYTES + Short.BYTES;

    private StoreFileFormat() {}
}
