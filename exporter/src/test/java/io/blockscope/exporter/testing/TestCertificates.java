package io.blockscope.exporter.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed key pair made at test time with the running JDK's {@code keytool}, valid for
 * 127.0.0.1 and localhost, as a PKCS12 keystore and as PEM certificate and PKCS#8 key files.
 */
public final class TestCertificates {

    public static final String PASSWORD = "changeit-test";

    private final Path keystore;
    private final Path certPem;
    private final Path keyPem;

    private TestCertificates(Path keystore, Path certPem, Path keyPem) {
        this.keystore = keystore;
        this.certPem = certPem;
        this.keyPem = keyPem;
    }

    /** Generates {@code NAME.p12}, {@code NAME.crt.pem} and {@code NAME.key.pem} in {@code dir}. */
    public static TestCertificates generate(Path dir, String name)
            throws IOException, InterruptedException, GeneralSecurityException {
        Path keystore = dir.resolve(name + ".p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore store = load(keystore);
        Certificate cert = store.getCertificate(name);
        Path certPem = dir.resolve(name + ".crt.pem");
        Path keyPem = dir.resolve(name + ".key.pem");
        Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(
                keyPem,
                pem("PRIVATE KEY", store.getKey(name, PASSWORD.toCharArray()).getEncoded()));
        return new TestCertificates(keystore, certPem, keyPem);
    }

    public Path keystore() {
        return keystore;
    }

    public Path certPem() {
        return certPem;
    }

    public Path keyPem() {
        return keyPem;
    }

    /** A client context that trusts this certificate, optionally presenting {@code clientIdentity}. */
    public SSLContext clientContextTrustingMe(TestCertificates clientIdentity)
            throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(
                "server", load(keystore).getCertificate(load(keystore).aliases().nextElement()));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (clientIdentity != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(clientIdentity.keystore), PASSWORD.toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(Path keystore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
