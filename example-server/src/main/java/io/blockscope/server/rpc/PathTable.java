package io.blockscope.server.rpc;

import io.blockscope.server.region.Region;
import io.blockscope.server.region.Tables;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Request;

/** The table a {@code /v1/{table}/...} request addresses. */
final class PathTable {

    private PathTable() {}

    /** The region serving the table the path names; an unknown table is a 404 listing those served. */
    static Region region(Request request, Tables tables) {
        String name = Request.getPathInContext(request).split("/", -1)[2];
        Region region = tables.region(name);
        if (region == null) {
            List<String> names = new ArrayList<>();
            for (Region r : tables.regions()) {
                names.add(r.name());
            }
            throw RpcException.notFound(
                    "unknown table '" + KeyEncoding.abbreviate(name) + "'; tables served: " + names);
        }
        return region;
    }
}
