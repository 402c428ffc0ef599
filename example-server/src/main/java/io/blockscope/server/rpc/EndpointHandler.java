package io.blockscope.server.rpc;

import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One route's Jetty handler: counts the request, refuses a method the endpoint does not take,
 * collects a POST body first where the endpoint reads one, and hands every failure to {@link
 * RpcErrors}.
 */
final class EndpointHandler extends Handler.Abstract {

    /** An endpoint proper; whatever it throws becomes the error answer. */
    @FunctionalInterface
    interface Endpoint {
        void serve(Request request, Response response, Callback callback) throws Exception;
    }

    private final Set<String> methods;
    private final String use;
    private final boolean readsBody;
    private final Endpoint endpoint;
    private final Shared shared;

    /** What every route shares. */
    record Shared(RpcLimits limits, RpcMetrics metrics, RpcErrors errors) {}

    /**
     * @param methods   the methods the endpoint takes; empty for any
     * @param use       how to call it, for the 405 of another method (e.g. "GET")
     * @param readsBody whether a POST's body is collected before the endpoint runs
     */
    EndpointHandler(Set<String> methods, String use, boolean readsBody, Endpoint endpoint, Shared shared) {
        this.methods = methods;
        this.use = use;
        this.readsBody = readsBody;
        this.endpoint = endpoint;
        this.shared = shared;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        shared.metrics().request();
        if (readsBody && request.getMethod().equals("POST")) {
            RequestBody.collect(
                    request,
                    shared.limits(),
                    () -> serve(request, response, callback),
                    refused -> shared.errors().send(request, response, callback, refused));
        } else {
            serve(request, response, callback);
        }
        return true;
    }

    private void serve(Request request, Response response, Callback callback) {
        try {
            if (!methods.isEmpty() && !methods.contains(request.getMethod())) {
                throw new RpcException(
                        405,
                        "method_not_allowed",
                        request.getMethod() + " " + Request.getPathInContext(request) + " is not supported; use "
                                + use);
            }
            endpoint.serve(request, response, callback);
        } catch (Exception e) {
            shared.errors().send(request, response, callback, e);
        }
    }
}
