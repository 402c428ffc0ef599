package io.blockscope.server.pe;

import io.blockscope.server.region.ReadResult;
import io.blockscope.server.rpc.CellBlock;
import java.nio.ByteBuffer;

/**
 * Does with an in-process result what the RPC tier does before a response leaves: encodes every cell
 * into a direct response buffer. Keeps the in-process measurement honest (the cells are really
 * read) without a network; the buffer is reused, so this costs no heap.
 */
final class ResultSink {

    private ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);

    void write(ReadResult result) {
        long needed = CellBlock.HEADER_LENGTH;
        for (int i = 0; i < result.cellCount(); i++) {
            needed += CellBlock.encodedLength(result.cell(i));
        }
        if (needed > buffer.capacity()) {
            buffer = ByteBuffer.allocateDirect(
                    (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, buffer.capacity() * 2L)));
        }
        buffer.clear();
        CellBlock.writeHeader(buffer, result.cellCount());
        for (int i = 0; i < result.cellCount(); i++) {
            CellBlock.encode(result.cell(i), buffer);
        }
    }
}
