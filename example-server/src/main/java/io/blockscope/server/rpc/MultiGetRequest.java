package io.blockscope.server.rpc;

import io.blockscope.server.region.Region;
import io.blockscope.server.region.Tables;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.server.Request;

/**
 * {@code POST /v1/{table}/multiget} with {@code {"rows": [...]}} (the body collected by {@link
 * RequestBody}), or {@code GET} with repeated {@code row=}: several rows at once.
 */
record MultiGetRequest(Region region, byte[][] rows, KeyEncoding keys, boolean json) {

    private static final Set<String> PARAMS = Set.of("row", "keyEncoding", "format");

    /** Checks the whole request before anything is read; what is wrong is a 4xx saying how to fix it. */
    static MultiGetRequest parse(Request request, Tables tables, RpcLimits limits) {
        QueryParams params = QueryParams.of(request, PARAMS, "multiget");
        Region region = PathTable.region(request, tables);
        boolean json = params.wantsJson(request);
        List<String> rowTexts;
        KeyEncoding keys;
        if (request.getMethod().equals("POST")) {
            if (!params.all("row").isEmpty()) {
                throw RpcException.badRequest("pass the rows either in the JSON body or as row= parameters, not both");
            }
            MultiGetBody body = RequestBody.multiGet(request, limits);
            keys = KeyEncoding.parse(body.keyEncoding != null ? body.keyEncoding : params.single("keyEncoding"));
            rowTexts = body.rows;
        } else {
            keys = params.keyEncoding();
            rowTexts = params.all("row");
        }
        if (rowTexts.isEmpty()) {
            throw RpcException.badRequest("a multiget needs at least one row: POST {\"rows\": [\"row1\", \"row2\"]}");
        }
        if (rowTexts.size() > limits.maxMultiGetRows()) {
            throw RpcException.badRequest("multiget of " + rowTexts.size() + " rows exceeds the limit of "
                    + limits.maxMultiGetRows() + " rows per request; split it into smaller batches");
        }
        byte[][] rows = new byte[rowTexts.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = keys.decodeRow(rowTexts.get(i), "row " + i);
        }
        return new MultiGetRequest(region, rows, keys, json);
    }
}
