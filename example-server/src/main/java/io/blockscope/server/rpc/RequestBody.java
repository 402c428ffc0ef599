package io.blockscope.server.rpc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A request body, collected without holding a thread: a slow (or stalled, or {@code Expect:
 * 100-continue}) sender only holds its connection, for at most --slow-client-timeout, and a request
 * thread is taken only once the whole body is here.
 */
final class RequestBody {

    private static final String ATTRIBUTE = "io.blockscope.rpc.body";

    private RequestBody() {}

    /**
     * Collects the body (or the failure to) onto the request, then runs {@code then} on a request
     * thread; a body declared larger than the limit is refused at once.
     */
    static void collect(Request request, RpcLimits limits, Runnable then, Consumer<RpcException> refused) {
        long declared = request.getLength();
        if (declared > limits.maxRequestBytes()) {
            refused.accept(tooLarge(declared, limits));
            return;
        }
        Scheduler.Task deadline = ConnectionGuards.deadline(request, limits.slowClientTimeout(), "sending the body");
        int max = (int) Math.min(limits.maxRequestBytes(), Integer.MAX_VALUE - 16);
        Content.Source.asByteArrayAsync(request, max).whenComplete((body, failure) -> {
            deadline.cancel();
            request.setAttribute(ATTRIBUTE, failure == null ? body : failure);
            request.getComponents().getExecutor().execute(then);
        });
    }

    /**
     * Whether the request has a body that was not read whole: one refused before or while
     * collecting it, or sent to an endpoint that reads none.
     */
    static boolean leftUnread(Request request) {
        boolean hasBody = request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
        return hasBody && !(request.getAttribute(ATTRIBUTE) instanceof byte[]);
    }

    /** The collected body as a multi-get body (see {@link MultiGetBody}). */
    static MultiGetBody multiGet(Request request, RpcLimits limits) {
        Object body = request.getAttribute(ATTRIBUTE);
        if (body instanceof Throwable failure) {
            if (failure instanceof IllegalArgumentException) {
                // asByteArrayAsync's answer to a body past its size limit (one without Content-Length)
                throw tooLarge(-1, limits);
            }
            throw RpcException.badRequest(
                    "could not read the request body: " + MultiGetBody.firstLine(String.valueOf(failure)));
        }
        try {
            return MultiGetBody.read(
                    new ByteArrayInputStream((byte[]) body), limits.maxRequestBytes(), limits.maxMultiGetRows());
        } catch (MultiGetBody.TooLarge e) {
            throw tooLarge(-1, limits);
        } catch (IOException e) {
            throw RpcException.badRequest("could not read the request body: " + MultiGetBody.firstLine(e.getMessage()));
        }
    }

    private static RpcException tooLarge(long declared, RpcLimits limits) {
        return new RpcException(
                413,
                "request_too_large",
                "request body " + (declared > 0 ? "of " + declared + " bytes " : "") + "exceeds the limit of "
                        + limits.maxRequestBytes() + " bytes; send fewer rows per request");
    }
}
