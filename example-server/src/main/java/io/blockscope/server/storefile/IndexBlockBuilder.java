package io.blockscope.server.storefile;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Collects index entries (first row, block offset, block size) and lays them out as an index payload. */
final class IndexBlockBuilder {

    private record Entry(byte[] row, long blockOffset, int blockSize) {}

    private final List<Entry> entries = new ArrayList<>();
    private int payloadSize = Integer.BYTES;

    void add(byte[] firstRow, long blockOffset, int blockSize) {
        entries.add(new Entry(firstRow, blockOffset, blockSize));
        payloadSize += Integer.BYTES + StoreFileFormat.INDEX_ENTRY_OVERHEAD + firstRow.length;
    }

    int entryCount() {
        return entries.size();
    }

    /** Bytes the payload would take now. */
    int payloadSize() {
        return payloadSize;
    }

    byte[] firstRow() {
        return entries.get(0).row();
    }

    byte[] toPayload() {
        ByteBuffer out = ByteBuffer.allocate(payloadSize);
        int n = entries.size();
        out.putInt(n);
        int start = Integer.BYTES + n * Integer.BYTES;
        for (Entry e : entries) {
            out.putInt(start);
            start += StoreFileFormat.INDEX_ENTRY_OVERHEAD + e.row().length;
        }
        for (Entry e : entries) {
            out.putLong(e.blockOffset())
                    .putInt(e.blockSize())
                    .putShort((short) e.row().length)
                    .put(e.row());
        }
        return out.array();
    }

    void clear() {
        entries.clear();
        payloadSize = Integer.BYTES;
    }
}
