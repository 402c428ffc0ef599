package io.blockscope.server.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A multi-get body, {@code {"rows": ["k1", ...], "keyEncoding": "hex"}}, read as a token stream
 * straight from the request: no copy of the body and no JSON tree, the byte limit checked as the
 * bytes arrive and the row limit as the rows do, so memory stays bounded by the limits themselves
 * rather than by a multiple of the body.
 */
final class MultiGetBody {

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(8)
                    .maxStringLength(64 * 1024)
                    .build())
            .build();
    private static final String EXAMPLE = "{\"rows\": [\"row1\", ...]}";

    final List<String> rows;
    final String keyEncoding;

    private MultiGetBody(List<String> rows, String keyEncoding) {
        this.rows = rows;
        this.keyEncoding = keyEncoding;
    }

    /** Thrown (as an IOException, from inside Jackson's reads) when the body passes the byte limit. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("request body too large");
        }
    }

    /**
     * Reads the body from {@code in}.
     *
     * @throws TooLarge past {@code maxBytes}
     * @throws RpcException (400) for a body that is not the expected JSON, or has more than {@code maxRows} rows
     */
    static MultiGetBody read(InputStream in, long maxBytes, int maxRows) throws IOException {
        CountingInput counted = new CountingInput(in, maxBytes);
        try (JsonParser p = JSON.createParser(counted)) {
            JsonToken first;
            try {
                first = p.nextToken();
            } catch (TooLarge e) {
                throw e;
            }
            if (first == null) {
                throw RpcException.badRequest("empty request body; send JSON " + EXAMPLE);
            }
            if (first != JsonToken.START_OBJECT) {
                throw RpcException.badRequest("request body must be a JSON object " + EXAMPLE);
            }
            List<String> rows = null;
            String keyEncoding = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("rows")) {
                    rows = rows(p, value, maxRows);
                } else if (field.equals("keyEncoding")) {
                    if (value != JsonToken.VALUE_NULL) {
                        if (value != JsonToken.VALUE_STRING) {
                            throw RpcException.badRequest("keyEncoding must be a string: utf8, hex or base64");
                        }
                        keyEncoding = p.getText();
                    }
                } else {
                    throw RpcException.badRequest("unknown field '" + KeyEncoding.abbreviate(field)
                            + "' in the body; accepted: rows, keyEncoding");
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw RpcException.badRequest("request body must be one JSON object " + EXAMPLE);
            }
            if (rows == null) {
                throw RpcException.badRequest("the body needs a 'rows' array of row keys: " + EXAMPLE);
            }
            return new MultiGetBody(rows, keyEncoding);
        } catch (TooLarge e) {
            throw e;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw RpcException.badRequest(
                    "request body is not valid JSON (" + firstLine(e.getOriginalMessage()) + "); send " + EXAMPLE);
        }
    }

    private static List<String> rows(JsonParser p, JsonToken start, int maxRows) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            throw RpcException.badRequest("the body needs a 'rows' array of row keys: " + EXAMPLE);
        }
        List<String> rows = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.VALUE_STRING) {
                throw RpcException.badRequest("rows[" + rows.size() + "] is " + kind(t)
                        + ", not a string; row keys are strings in the request's keyEncoding");
            }
            if (rows.size() == maxRows) {
                throw RpcException.badRequest("multiget of more than " + maxRows + " rows exceeds the limit of "
                        + maxRows + " rows per request; split it into smaller batches");
            }
            rows.add(p.getText());
        }
        return rows;
    }

    private static String kind(JsonToken t) {
        if (t == null) {
            return "missing";
        }
        switch (t) {
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "boolean";
            case START_OBJECT:
                return "object";
            case START_ARRAY:
                return "array";
            default:
                return t.name().toLowerCase(Locale.ROOT);
        }
    }

    static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** Counts what is read and fails past the limit, so Jackson never buffers more than the limit. */
    private static final class CountingInput extends FilterInputStream {
        private final long max;
        private long read;

        CountingInput(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > max) {
                throw new TooLarge();
            }
        }
    }
}
