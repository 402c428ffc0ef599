package io.blockscope.server.storefile;

import io.blockscope.server.buffer.ByteBuff;

/**
 * Reads an index payload in place (see {@link StoreFileFormat}): binary search over the entries'
 * first rows without copying them. Each entry is bounds-checked as it is read, so a damaged index
 * fails with a {@link CorruptStoreFileException} instead of pointing anywhere.
 */
final class IndexBlock {

    private final ByteBuff data;
    private final int count;
    private final String file;
    private final long blockOffset;

    IndexBlock(ByteBuff data, String file, long blockOffset) throws CorruptStoreFileException {
        this.data = data;
        this.file = file;
        this.blockOffset = blockOffset;
        if (data.capacity() < Integer.BYTES) {
            throw corrupt("index block of " + data.capacity() + " bytes has no entry count");
        }
        this.count = data.getInt(0);
        if (count < 0
                || count > (data.capacity() - Integer.BYTES) / (Integer.BYTES + StoreFileFormat.INDEX_ENTRY_OVERHEAD)) {
            throw corrupt(
                    "index block claims " + count + " entries, which do not fit its " + data.capacity() + " bytes");
        }
    }

    int entryCount() {
        return count;
    }

    long blockOffset(int entry) throws CorruptStoreFileException {
        return data.getLong(entryStart(entry));
    }

    int blockSize(int entry) throws CorruptStoreFileException {
        return data.getInt(entryStart(entry) + Long.BYTES);
    }

    /** A copy of entry {@code entry}'s first row. */
    byte[] row(int entry) throws CorruptStoreFileException {
        int start = entryStart(entry);
        return data.toBytes(start + StoreFileFormat.INDEX_ENTRY_OVERHEAD, rowLength(start));
    }

    int compareRow(int entry, byte[] row, int offset, int length) throws CorruptStoreFileException {
        int start = entryStart(entry);
        return ByteBuff.compareTo(
                data, start + StoreFileFormat.INDEX_ENTRY_OVERHEAD, rowLength(start), row, offset, length);
    }

    /**
     * Where a seek for {@code row} starts: the last entry whose first row sorts before {@code row}
     * (its block may end with cells of {@code row}), else entry 0; -1 for an empty index.
     */
    int seekEntry(byte[] row, int offset, int length) throws CorruptStoreFileException {
        if (count == 0) {
            return -1;
        }
        int found = lastEntryBelow(row, offset, length, false);
        return Math.max(found, 0);
    }

    /** The last entry whose first row is at or before {@code row}, or -1 when none is. */
    int floorEntry(byte[] row, int offset, int length) throws CorruptStoreFileException {
        return lastEntryBelow(row, offset, length, true);
    }

    private int lastEntryBelow(byte[] row, int offset, int length, boolean inclusive) throws CorruptStoreFileException {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compareRow(mid, row, offset, length);
            if (c < 0 || (inclusive && c == 0)) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private int entryStart(int entry) throws CorruptStoreFileException {
        if (entry < 0 || entry >= count) {
            throw new IndexOutOfBoundsException("entry " + entry + " of an index with " + count + " entries");
        }
        int start = data.getInt(Integer.BYTES + entry * Integer.BYTES);
        int tableEnd = Integer.BYTES + count * Integer.BYTES;
        if (start < tableEnd || start > data.capacity() - StoreFileFormat.INDEX_ENTRY_OVERHEAD) {
            throw corrupt("index entry " + entry + " starts at " + start + ", outside the entry area [" + tableEnd
                    + ", " + data.capacity() + ")");
        }
        return start;
    }

    private int rowLength(int start) throws CorruptStoreFileException {
        int length = data.getShort(start + Long.BYTES + Integer.BYTES);
        if (length < 0 || length > data.capacity() - start - StoreFileFormat.INDEX_ENTRY_OVERHEAD) {
            throw corrupt("index entry at " + start + " has a row of " + length + " bytes, past the end of the block");
        }
        return length;
    }

    private CorruptStoreFileException corrupt(String problem) {
        return new CorruptStoreFileException(file, blockOffset, problem);
    }
}
