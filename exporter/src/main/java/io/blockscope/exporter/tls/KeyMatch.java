package io.blockscope.exporter.tls;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;

/**
 * Whether a private key belongs to a certificate: sign a fixed challenge with the key and verify it
 * with the certificate's public key. Neither JSSE nor Jetty checks this at startup; without it a
 * mismatched pair serves happily and every handshake fails.
 */
final class KeyMatch {

    private static final byte[] CHALLENGE = "blockscope key/certificate check".getBytes(StandardCharsets.US_ASCII);

    private KeyMatch() {}

    /**
     * True when the pair matches, or when this JDK cannot sign with the key's algorithm (then the
     * handshake is the judge).
     */
    static boolean matches(PrivateKey key, PublicKey certificateKey) {
        String algorithm = signatureAlgorithm(key.getAlgorithm());
        if (algorithm == null) {
            return true;
        }
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(CHALLENGE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificateKey);
            verifier.update(CHALLENGE);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            // e.g. an EC key on another curve than the certificate's: not a match either
            return false;
        }
    }

    private static String signatureAlgorithm(String keyAlgorithm) {
        switch (keyAlgorithm) {
            case "RSA":
                return "SHA256withRSA";
            case "EC":
                return "SHA256withECDSA";
            case "DSA":
                return "SHA256withDSA";
            case "Ed25519":
            case "Ed448":
            case "EdDSA":
                return keyAlgorithm;
            default:
                return null;
        }
    }
}
