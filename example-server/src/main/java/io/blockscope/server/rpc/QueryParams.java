package io.blockscope.server.rpc;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/** A request's query parameters, checked against the names its operation accepts. */
final class QueryParams {

    private final Fields fields;

    private QueryParams(Fields fields) {
        this.fields = fields;
    }

    /** The parameters of {@code request}; a name {@code op} does not accept is a 400 listing the accepted ones. */
    static QueryParams of(Request request, Set<String> accepted, String op) {
        Fields params = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        for (String name : params.getNames()) {
            if (!accepted.contains(name)) {
                throw RpcException.badRequest("unknown parameter '" + KeyEncoding.abbreviate(name) + "' for " + op
                        + "; accepted: " + String.join(", ", new TreeSet<>(accepted)));
            }
        }
        return new QueryParams(params);
    }

    /** The parameter's value, null when absent; given twice is a 400. */
    String single(String name) {
        List<String> values = fields.getValuesOrEmpty(name);
        if (values.size() > 1) {
            throw RpcException.badRequest(
                    "parameter '" + name + "' is given " + values.size() + " times; give it once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    /** Every value of a repeated parameter, in order. */
    List<String> all(String name) {
        return fields.getValuesOrEmpty(name);
    }

    KeyEncoding keyEncoding() {
        return KeyEncoding.parse(single("keyEncoding"));
    }

    /** A key parameter, empty when absent (an open end of a range). */
    byte[] keyOrEmpty(String name, KeyEncoding keys) {
        String text = single(name);
        return text == null ? new byte[0] : keys.decode(text, name);
    }

    long positiveLong(String name, long absent) {
        String text = single(name);
        if (text == null) {
            return absent;
        }
        try {
            long value = Long.parseLong(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw RpcException.badRequest(
                "parameter '" + name + "' must be a positive integer, got '" + KeyEncoding.abbreviate(text) + "'");
    }

    /** JSON or a cell block: {@code format=} when given, else the Accept header; a cell block by default. */
    boolean wantsJson(Request request) {
        String format = single("format");
        if (format != null) {
            return switch (format) {
                case "json" -> true;
                case "cellblock" -> false;
                default ->
                    throw RpcException.badRequest(
                            "unknown format '" + KeyEncoding.abbreviate(format) + "'; accepted: json, cellblock");
            };
        }
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        return accept != null && accept.contains(Json.CONTENT_TYPE) && !accept.contains(CellBlock.CONTENT_TYPE);
    }
}
