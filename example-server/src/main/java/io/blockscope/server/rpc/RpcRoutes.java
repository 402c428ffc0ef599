package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.region.Tables;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jetty.http.pathmap.RegexPathSpec;
import org.eclipse.jetty.http.pathmap.ServletPathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.PathMappingsHandler;

/**
 * The RPC endpoints (see docs/rpc.md) by path, in Jetty's own path mapping; a path no endpoint
 * serves gets a 404 that lists them.
 */
final class RpcRoutes {

    static final String ENDPOINTS = "GET /healthz, GET /status, GET /v1/tables, GET /v1/{table}/get?row=KEY, "
            + "POST /v1/{table}/multiget (or GET with repeated row=), GET /v1/{table}/scan?start=&stop=&limit=&filter=";
    private static final Set<String> GET = Set.of("GET");

    private RpcRoutes() {}

    static Handler handler(
            Tables tables,
            RpcLimits limits,
            FilterClasses filterClasses,
            Supplier<Map<String, Object>> statusSource,
            ClassLoader filterLoader) {
        RpcMetrics metrics = new RpcMetrics();
        RpcResponses responses = new RpcResponses(limits, metrics);
        EndpointHandler.Shared shared = new EndpointHandler.Shared(limits, metrics, new RpcErrors(responses, metrics));
        ServerStatus status = new ServerStatus(tables, limits, filterClasses, statusSource, metrics);
        Reads reads = new Reads(tables, limits, filterLoader, filterClasses, responses, metrics);

        // NoContext: endpoints see the request's own path, not one relative to the matched spec
        PathMappingsHandler routes = new PathMappingsHandler.NoContext();
        routes.addMapping(
                new ServletPathSpec("/healthz"),
                get((request, response, callback) -> responses.text(response, callback, "ok\n"), shared));
        routes.addMapping(
                new ServletPathSpec("/status"),
                get(
                        (request, response, callback) -> responses.json(
                                response,
                                callback,
                                200,
                                status.status("settled"
                                        .equals(Request.extractQueryParameters(request, StandardCharsets.UTF_8)
                                                .getValue("gc")))),
                        shared));
        routes.addMapping(
                new ServletPathSpec("/v1/tables"),
                get(
                        (request, response, callback) ->
                                responses.json(response, callback, 200, Map.of("tables", status.tables())),
                        shared));
        // [^/]* rather than a template's {table}: an empty table name is an unknown table, not an unknown path
        routes.addMapping(new RegexPathSpec("^/v1/[^/]*/get$"), get(reads::get, shared));
        routes.addMapping(new RegexPathSpec("^/v1/[^/]*/scan$"), get(reads::scan, shared));
        routes.addMapping(
                new RegexPathSpec("^/v1/[^/]*/multiget$"),
                new EndpointHandler(
                        Set.of("GET", "POST"),
                        "POST with a JSON body {\"rows\": [\"row1\", ...]} (or GET with repeated row= parameters)",
                        true,
                        reads::multiGet,
                        shared));
        routes.addMapping(
                new ServletPathSpec("/"),
                new EndpointHandler(Set.of(), "", false, (request, response, callback) -> notFound(request), shared));
        return routes;
    }

    private static EndpointHandler get(EndpointHandler.Endpoint endpoint, EndpointHandler.Shared shared) {
        return new EndpointHandler(GET, "GET", false, endpoint, shared);
    }

    private static void notFound(Request request) {
        String path = Request.getPathInContext(request);
        String[] parts = path.split("/", -1);
        if (parts.length == 4 && parts[0].isEmpty() && parts[1].equals("v1")) {
            throw RpcException.notFound("no operation '" + parts[3] + "' in " + path + "; endpoints: " + ENDPOINTS);
        }
        throw RpcException.notFound("no endpoint " + request.getMethod() + " " + path + "; endpoints: " + ENDPOINTS);
    }
}
