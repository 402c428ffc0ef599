package io.blockscope.server.rpc;

import io.blockscope.server.region.Region;
import io.blockscope.server.region.Tables;
import java.util.Set;
import org.eclipse.jetty.server.Request;

/** {@code GET /v1/{table}/get?row=KEY}: one row. */
record GetRequest(Region region, byte[] row, KeyEncoding keys, boolean json) {

    private static final Set<String> PARAMS = Set.of("row", "keyEncoding", "format");

    /** Checks the whole request before anything is read; what is wrong is a 4xx saying how to fix it. */
    static GetRequest parse(Request request, Tables tables) {
        QueryParams params = QueryParams.of(request, PARAMS, "get");
        Region region = PathTable.region(request, tables);
        KeyEncoding keys = params.keyEncoding();
        boolean json = params.wantsJson(request);
        String row = params.single("row");
        if (row == null) {
            throw RpcException.badRequest("missing parameter 'row': pass the row key, e.g. /v1/" + region.name()
                    + "/get?row=00000000000000000000000042");
        }
        return new GetRequest(region, keys.decodeRow(row, "row"), keys, json);
    }
}
