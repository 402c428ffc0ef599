package io.blockscope.exporter.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads PEM certificates and unencrypted PKCS#8 private keys, the forms most tools emit. */
final class Pem {

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final String TO_PKCS8 =
            "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY.pem -out KEY.pkcs8.pem";

    private Pem() {}

    /** The certificates of {@code text}, in file order (leaf first for a chain). */
    static List<X509Certificate> certificates(String text, String source) {
        List<X509Certificate> result = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            Matcher m = BLOCK.matcher(text);
            while (m.find()) {
                if (m.group(1).equals("CERTIFICATE")) {
                    byte[] der = decode(m.group(2), source);
                    result.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException(source + " holds a certificate Java cannot read: " + e.getMessage());
        }
        if (result.isEmpty()) {
            throw new IllegalArgumentException(
                    source + " has no '-----BEGIN CERTIFICATE-----' block; give a PEM certificate (chain)");
        }
        return result;
    }

    /** The private key of {@code text}, whose algorithm must be that of {@code publicKeyAlgorithm}. */
    static PrivateKey privateKey(String text, String publicKeyAlgorithm, String source) {
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            if (type.equals("PRIVATE KEY")) {
                byte[] der = decode(m.group(2), source);
                try {
                    return KeyFactory.getInstance(publicKeyAlgorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
                } catch (GeneralSecurityException e) {
                    throw new IllegalArgumentException(source + " holds no " + publicKeyAlgorithm
                            + " private key matching the certificate (" + e.getMessage() + ")");
                }
            }
            if (type.equals("ENCRYPTED PRIVATE KEY")) {
                throw new IllegalArgumentException(
                        source + " holds an encrypted key; give an unencrypted PKCS#8 key readable only by the"
                                + " JVM's user, or use a PKCS12 keystore with a password (tls.keystore), or "
                                + TO_PKCS8);
            }
            if (type.endsWith("PRIVATE KEY")) {
                throw new IllegalArgumentException(source + " holds a '" + type
                        + "' (PKCS#1/SEC1); the exporter reads PKCS#8 ('PRIVATE KEY'): " + TO_PKCS8);
            }
        }
        throw new IllegalArgumentException(
                source + " has no '-----BEGIN PRIVATE KEY-----' block; give an unencrypted PKCS#8 PEM key");
    }

    private static byte[] decode(String base64, String source) {
        try {
            return Base64.getMimeDecoder().decode(base64.trim().getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + " has a PEM block that is not valid base64");
        }
    }
}
