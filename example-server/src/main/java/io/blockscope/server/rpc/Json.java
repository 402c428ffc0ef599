package io.blockscope.server.rpc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The JSON settings shared by server and client (kept apart from Jetty so the client does not load it). */
final class Json {

    static final String CONTENT_TYPE = "application/json";
    /** Rejects duplicate keys: a body with two "rows" fields is ambiguous, not "last one wins". */
    static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private Json() {}
}
