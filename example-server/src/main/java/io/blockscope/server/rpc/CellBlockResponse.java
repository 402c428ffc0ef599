package io.blockscope.server.rpc;

import io.blockscope.server.region.ReadResult;
import java.nio.ByteBuffer;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Streams a result's cells to the client as a {@link CellBlock}, one pooled direct buffer at a
 * time, and gives the result's blocks back to the cache only when Jetty reports the last write done,
 * or failed (client gone, idle timeout). The cells are read from the cache's memory while the
 * response is being written, so releasing any earlier would let eviction recycle bytes still being
 * copied: this class is where HBase's "shipped" rule meets the network.
 *
 * <p>{@link IteratingCallback} turns the write-callback-write chain into a loop, so a long response
 * neither recurses nor blocks a thread between writes.
 */
final class CellBlockResponse extends IteratingCallback {

    /** Large enough to amortize a write per chunk, small enough to pool. */
    static final int CHUNK_BYTES = 64 * 1024;

    private final Response response;
    private final ReadResult result;
    private final Callback done;
    private final ByteBufferPool pool;
    private final RpcMetrics metrics;
    private RetainableByteBuffer chunk;
    private int nextCell = -1;
    private boolean lastWritten;

    CellBlockResponse(Response response, ReadResult result, Callback done, ByteBufferPool pool, RpcMetrics metrics) {
        this.response = response;
        this.result = result;
        this.done = done;
        this.pool = pool;
        this.metrics = metrics;
    }

    /** Bytes of the whole body, for Content-Length. */
    static long bodyLength(ReadResult result) {
        long length = CellBlock.HEADER_LENGTH;
        for (int i = 0; i < result.cellCount(); i++) {
            length += CellBlock.encodedLength(result.cell(i));
        }
        return length;
    }

    /** The largest single cell, which sizes the chunk so any one cell fits. */
    private static int largestCell(ReadResult result) {
        int largest = 0;
        for (int i = 0; i < result.cellCount(); i++) {
            largest = Math.max(largest, CellBlock.encodedLength(result.cell(i)));
        }
        return largest;
    }

    @Override
    protected Action process() {
        if (lastWritten) {
            return Action.SUCCEEDED;
        }
        if (chunk == null) {
            chunk = pool.acquire(Math.max(CHUNK_BYTES, largestCell(result) + CellBlock.HEADER_LENGTH), true);
        }
        ByteBuffer out = chunk.getByteBuffer();
        out.clear();
        if (nextCell < 0) {
            CellBlock.writeHeader(out, result.cellCount());
            nextCell = 0;
        }
        while (nextCell < result.cellCount()) {
            int length = CellBlock.encodedLength(result.cell(nextCell));
            if (length > out.remaining()) {
                break;
            }
            CellBlock.encode(result.cell(nextCell), out);
            nextCell++;
        }
        out.flip();
        lastWritten = nextCell == result.cellCount();
        response.write(lastWritten, out, this);
        return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
        finish();
        metrics.responseWritten();
        done.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        finish();
        metrics.responseFailed();
        done.failed(cause);
    }

    private void finish() {
        // Blocks first: they are what the cache is waiting for.
        result.release();
        if (chunk != null) {
            chunk.release();
            chunk = null;
        }
    }
}
