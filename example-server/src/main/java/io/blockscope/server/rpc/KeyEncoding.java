package io.blockscope.server.rpc;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/** How row keys are spelled in requests (and JSON responses): {@code utf8} (default), {@code hex}, {@code base64}. */
public enum KeyEncoding {
    UTF8,
    HEX,
    BASE64;

    public static final String ACCEPTED = "utf8, hex, base64";

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static KeyEncoding parse(String text) {
        if (text == null) {
            return UTF8;
        }
        for (KeyEncoding e : values()) {
            if (e.label().equals(text)) {
                return e;
            }
        }
        throw RpcException.badRequest("unknown keyEncoding '" + text + "'; accepted: " + ACCEPTED);
    }

    /** Decodes one key; {@code what} names it in the error message (e.g. "row 3"). */
    byte[] decode(String text, String what) {
        byte[] key;
        try {
            key = switch (this) {
                case UTF8 -> text.getBytes(StandardCharsets.UTF_8);
                case HEX -> HexFormat.of().parseHex(text);
                case BASE64 -> Base64.getDecoder().decode(text);
            };
        } catch (IllegalArgumentException e) {
            throw RpcException.badRequest(what + " '" + abbreviate(text) + "' is not valid " + label() + ": "
                    + e.getMessage() + "; fix the key or pass the matching keyEncoding (" + ACCEPTED + ")");
        }
        if (key.length > Short.MAX_VALUE) {
            throw RpcException.badRequest(
                    what + " is " + key.length + " bytes; row keys are at most " + Short.MAX_VALUE + " bytes");
        }
        return key;
    }

    /** Decodes a row key, which may not be empty; {@code what} names it in the error message. */
    byte[] decodeRow(String text, String what) {
        byte[] key = decode(text, what);
        if (key.length == 0) {
            throw RpcException.badRequest(what + " is empty; row keys are 1.." + Short.MAX_VALUE + " bytes");
        }
        return key;
    }

    public String encode(byte[] key) {
        return switch (this) {
            case UTF8 -> new String(key, StandardCharsets.UTF_8);
            case HEX -> HexFormat.of().formatHex(key);
            case BASE64 -> Base64.getEncoder().encodeToString(key);
        };
    }

    static String abbreviate(String text) {
        return text.length() <= 64 ? text : text.substring(0, 60) + "...";
    }
}
