package io.blockscope.exporter.http;

import io.blockscope.exporter.auth.BasicAuthorization;
import io.blockscope.exporter.auth.Credentials;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP basic authentication for everything but {@code /-/healthy} (a liveness probe learns nothing
 * from it and often cannot send credentials). The check itself is {@link BasicAuthorization}.
 */
final class BasicAuthHandler extends Handler.Wrapper {

    private final BasicAuthorization authorization;

    BasicAuthHandler(Credentials credentials, Handler next) {
        super(next);
        this.authorization = new BasicAuthorization(credentials);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (MetricsHandler.HEALTHY.equals(Request.getPathInContext(request))
                || authorized(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, BasicAuthorization.CHALLENGE);
        return MetricsHandler.plain(response, callback, HttpStatus.UNAUTHORIZED_401, "Unauthorized.\n");
    }

    boolean authorized(String header) {
        return authorization.authorized(header);
    }
}
