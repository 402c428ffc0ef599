package io.blockscope.exporter.http;

import io.blockscope.exporter.auth.AuthGate;
import io.blockscope.exporter.auth.Credentials;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP basic authentication for everything but {@code /-/healthy} (a liveness probe learns nothing
 * from it and often cannot send credentials). What a header costs, and who is throttled, is {@link
 * AuthGate}'s business; this class only maps its verdict to 401 or 429.
 */
final class BasicAuthHandler extends Handler.Wrapper {

    private final AuthGate gate;

    BasicAuthHandler(Credentials credentials, Handler next) {
        super(next);
        this.gate = new AuthGate(credentials);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (MetricsHandler.HEALTHY.equals(Request.getPathInContext(request))) {
            return super.handle(request, response, callback);
        }
        String client = Request.getRemoteAddr(request);
        AuthGate.Verdict verdict = gate.check(request.getHeaders().get(HttpHeader.AUTHORIZATION), client);
        if (verdict == AuthGate.Verdict.ALLOWED) {
            return super.handle(request, response, callback);
        }
        if (verdict == AuthGate.Verdict.THROTTLED) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, gate.retryAfterSeconds(client));
            return MetricsHandler.plain(
                    response, callback, HttpStatus.TOO_MANY_REQUESTS_429, "Too many failed logins; retry later.\n");
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, AuthGate.CHALLENGE);
        return MetricsHandler.plain(response, callback, HttpStatus.UNAUTHORIZED_401, "Unauthorized.\n");
    }
}
