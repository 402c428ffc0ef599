package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.filter.FilterNotAllowedException;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.region.ReadResult;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.ScanSpec;
import io.blockscope.server.region.Tables;
import java.util.Arrays;
import java.util.Set;
import org.eclipse.jetty.server.Request;

/**
 * {@code GET /v1/{table}/scan?start=&stop=&limit=&filter=}: a range of rows, resumed where a
 * continuation token says when one is given.
 *
 * @param start first row, or where the continuation resumes; empty for the table's start
 * @param stop  first row not returned; empty for the table's end
 * @param limit rows still owed to the client; -1 for no limit
 */
record ScanRequest(
        Region region,
        byte[] start,
        byte[] stop,
        long limit,
        long maxBytes,
        FilterSpec filter,
        KeyEncoding keys,
        boolean json) {

    private static final Set<String> PARAMS =
            Set.of("start", "stop", "limit", "filter", "maxBytes", "continuation", "keyEncoding", "format");

    /** Checks the whole request before anything is read; what is wrong is a 4xx saying how to fix it. */
    static ScanRequest parse(
            Request request, Tables tables, RpcLimits limits, ClassLoader filterLoader, FilterClasses filterClasses) {
        QueryParams params = QueryParams.of(request, PARAMS, "scan");
        Region region = PathTable.region(request, tables);
        KeyEncoding keys = params.keyEncoding();
        boolean json = params.wantsJson(request);
        byte[] start = params.keyOrEmpty("start", keys);
        byte[] stop = params.keyOrEmpty("stop", keys);
        if (start.length > 0 && stop.length > 0 && Arrays.compareUnsigned(start, stop) >= 0) {
            throw RpcException.badRequest("bad range: start '" + params.single("start") + "' must sort before stop '"
                    + params.single("stop") + "' (rows are ordered as unsigned bytes; stop is exclusive)");
        }
        long limit = params.positiveLong("limit", -1);
        long maxBytes = Math.min(params.positiveLong("maxBytes", limits.maxResponseBytes()), limits.maxResponseBytes());
        FilterSpec filter;
        try {
            filter = FilterSpec.parse(params.single("filter"), filterLoader, filterClasses);
        } catch (FilterNotAllowedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw RpcException.badRequest(e.getMessage());
        }
        String tokenText = params.single("continuation");
        if (tokenText != null) {
            ContinuationToken token = ContinuationToken.decode(tokenText);
            byte[] resume = token.resumeRow();
            if (Arrays.compareUnsigned(resume, start) < 0
                    || (stop.length > 0 && Arrays.compareUnsigned(resume, stop) >= 0)) {
                throw RpcException.badRequest("continuation token does not belong to this range; "
                        + "send it back with the same start and stop as the scan that returned it");
            }
            if (limit > 0 && token.remainingRows() > limit) {
                throw RpcException.badRequest(
                        "continuation token promises more rows than limit=" + limit + "; keep limit unchanged");
            }
            start = resume;
            limit = token.remainingRows();
        }
        return new ScanRequest(region, start, stop, limit, maxBytes, filter, keys, json);
    }

    /** What the region reads for this request: at most a response's worth under the server's limits. */
    ScanSpec spec(RpcLimits limits) {
        int maxRows = (int) (limit > 0 ? Math.min(limit, limits.maxScanRows()) : limits.maxScanRows());
        return new ScanSpec(
                start,
                stop,
                filter,
                maxRows,
                maxBytes,
                CellBlock::encodedLength,
                limits.maxScanRowsExamined(),
                limits.maxScanBytesExamined());
    }

    /** The token the client sends to read on; null when {@code result} ends the scan. */
    String continuation(ReadResult result) {
        if (result.isComplete()) {
            return null;
        }
        long remaining = limit > 0 ? limit - result.rowCount() : -1;
        return remaining == 0 ? null : new ContinuationToken(result.resumeRow(), remaining).encode();
    }
}
