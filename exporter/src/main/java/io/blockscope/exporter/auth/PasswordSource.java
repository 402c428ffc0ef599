package io.blockscope.exporter.auth;

/**
 * Credentials from a password given by reference ({@code auth.password.file} or {@code
 * auth.password.env}, see {@link Secrets}): the referenced value is a password hash, or, when the
 * operator opted in with {@code auth.plaintext=true}, the password itself. Nothing of the value is
 * ever put in a message.
 */
public final class PasswordSource {

    private PasswordSource() {}

    public static Credentials credentials(String user, String value, String option, boolean plaintextAllowed) {
        if (looksLikeHash(value)) {
            try {
                return Credentials.hashed(user, PasswordHash.parse(value));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad password hash in " + option + ": " + e.getMessage());
            }
        }
        if (plaintextAllowed) {
            return Credentials.plaintext(user, value);
        }
        throw new IllegalArgumentException(option + " holds no password hash (expected "
                + PasswordHash.ACCEPTED_FORMS + "); put a hash made with " + HashPassword.class.getName()
                + " there, or add auth.plaintext=true to use its content as the plaintext password");
    }

    private static boolean looksLikeHash(String value) {
        int colon = value.indexOf(':');
        return colon > 0 && PasswordHash.Algorithm.fromLabel(value.substring(0, colon)) != null;
    }
}
