package io.blockscope.exporter.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;

/**
 * The server's key and certificate chain, and optionally the CAs whose client certificates it
 * requires (mutual TLS), loaded and checked up front so that a bad file is a configuration error
 * with a clear message rather than a failed handshake later.
 */
public final class TlsMaterial {

    static final String KEY_ALIAS = "blockscope";

    private final KeyStore keyStore;
    private final char[] keyPassword;
    private final KeyStore clientTrustStore;

    private TlsMaterial(KeyStore keyStore, char[] keyPassword, KeyStore clientTrustStore) {
        this.keyStore = keyStore;
        this.keyPassword = keyPassword;
        this.clientTrustStore = clientTrustStore;
    }

    /** A PKCS12 keystore holding exactly one private key entry (with its chain). */
    public static TlsMaterial pkcs12(Path file, String password) {
        char[] secret = password == null ? new char[0] : password.toCharArray();
        KeyStore store;
        try (InputStream in = Files.newInputStream(readable(file, "tls.keystore"))) {
            store = KeyStore.getInstance("PKCS12");
            store.load(in, secret);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new IllegalArgumentException(
                        "tls.keystore " + file + " cannot be opened with tls.keystore.password: wrong password?");
            }
            throw new IllegalArgumentException(
                    "tls.keystore " + file + " is not a PKCS12 keystore this JDK can read (" + e.getMessage() + ")");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("tls.keystore " + file + " cannot be read: " + e.getMessage());
        }
        try {
            int keys = 0;
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    keys++;
                    java.security.Key key = store.getKey(alias, secret);
                    Certificate leaf = store.getCertificate(alias);
                    if (leaf == null
                            || !(key instanceof PrivateKey)
                            || !KeyMatch.matches((PrivateKey) key, leaf.getPublicKey())) {
                        throw new IllegalArgumentException("tls.keystore " + file.toAbsolutePath()
                                + ": the private key of entry '" + alias
                                + "' does not match its certificate; rebuild the keystore from the matching pair");
                    }
                }
            }
            if (keys != 1) {
                throw new IllegalArgumentException(
                        "tls.keystore " + file + " must hold exactly one private key entry, found " + keys);
            }
        } catch (UnrecoverableKeyException e) {
            throw new IllegalArgumentException(
                    "tls.keystore " + file + ": its key needs a password other than tls.keystore.password;"
                            + " use one password for store and key");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("tls.keystore " + file + " cannot be read: " + e.getMessage());
        }
        return new TlsMaterial(store, secret, null);
    }

    /** A PEM certificate chain (leaf first) and its unencrypted PKCS#8 PEM private key. */
    public static TlsMaterial pem(Path certFile, Path keyFile) {
        List<X509Certificate> chain = Pem.certificates(read(certFile, "tls.cert"), "tls.cert " + certFile);
        String algorithm = chain.get(0).getPublicKey().getAlgorithm();
        PrivateKey key = Pem.privateKey(read(keyFile, "tls.key"), algorithm, "tls.key " + keyFile);
        if (!KeyMatch.matches(key, chain.get(0).getPublicKey())) {
            throw new IllegalArgumentException("tls.key " + keyFile.toAbsolutePath()
                    + " does not match the certificate in tls.cert " + certFile.toAbsolutePath()
                    + ": give the key the certificate was issued for (compare: openssl x509 -noout -pubkey -in CERT"
                    + " and openssl pkey -pubout -in KEY)");
        }
        char[] secret = new char[0];
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(KEY_ALIAS, key, secret, chain.toArray(new Certificate[0]));
            return new TlsMaterial(store, secret, null);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(
                    "tls.key " + keyFile + " does not fit tls.cert " + certFile + ": " + e.getMessage());
        }
    }

    /** The same server identity, now requiring client certificates issued by the CAs in a PEM file. */
    public TlsMaterial requireClientCertificates(Path caFile) {
        List<X509Certificate> cas = Pem.certificates(read(caFile, "tls.client.ca"), "tls.client.ca " + caFile);
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                trust.setCertificateEntry("client-ca-" + i, cas.get(i));
            }
            return new TlsMaterial(keyStore, keyPassword, trust);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("tls.client.ca " + caFile + " cannot be used: " + e.getMessage());
        }
    }

    public KeyStore keyStore() {
        return keyStore;
    }

    public char[] keyPassword() {
        return keyPassword.clone();
    }

    /** The CAs client certificates must chain to, or null when clients need none. */
    public KeyStore clientTrustStore() {
        return clientTrustStore;
    }

    private static String read(Path file, String option) {
        try {
            return new String(Files.readAllBytes(readable(file, option)), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be read: " + e.getMessage());
        }
    }

    private static Path readable(Path file, String option) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(option + " " + file.toAbsolutePath() + " is not a readable file");
        }
        return file;
    }
}
