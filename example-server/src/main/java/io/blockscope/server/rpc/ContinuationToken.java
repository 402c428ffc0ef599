package io.blockscope.server.rpc;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Where a scan resumes, handed to the client when a response stopped at a limit: the next row to
 * read and how many rows of the client's {@code limit} are still owed (-1: no limit). Opaque to
 * clients (URL-safe base64); the client sends it back with the same scan parameters.
 */
record ContinuationToken(byte[] resumeRow, long remainingRows) {

    private static final byte VERSION = 1;

    String encode() {
        ByteBuffer b = ByteBuffer.allocate(1 + Long.BYTES + resumeRow.length);
        b.put(VERSION).putLong(remainingRows).put(resumeRow);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    static ContinuationToken decode(String token) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (bytes.length < 1 + Long.BYTES + 1 || bytes[0] != VERSION) {
            throw invalid();
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        b.get();
        long remaining = b.getLong();
        if (remaining < -1 || remaining == 0) {
            throw invalid();
        }
        byte[] row = new byte[b.remaining()];
        b.get(row);
        return new ContinuationToken(row, remaining);
    }

    private static RpcException invalid() {
        return RpcException.badRequest(
                "continuation token is not one this server issued; pass the X-Blockscope-Continuation "
                        + "value (or the JSON 'continuation' field) of the previous response unchanged");
    }
}
