package io.blockscope.hbaseit;

import io.blockscope.exporter.testing.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

/**
 * The agent's endpoint as operators secure it: TLS with a certificate made here by the test JDK's
 * keytool ({@link TestCertificates}, for 127.0.0.1), and basic auth with a salted SHA-256 password hash. Gives the agent
 * options and a client that trusts exactly that certificate and sends those credentials.
 */
final class SecuredEndpoint {

    static final String USER = "prometheus";

    private final Path keystore;
    private final String storePassword;
    private final String password;
    private final String hash;
    private final HttpClient client;

    private SecuredEndpoint(Path keystore, String storePassword, String password, String hash, HttpClient client) {
        this.keystore = keystore;
        this.storePassword = storePassword;
        this.password = password;
        this.hash = hash;
        this.client = client;
    }

    static SecuredEndpoint create(Path dir) throws Exception {
        SecureRandom random = new SecureRandom();
        String password = "pw:" + random.nextLong(); // a ':' inside, as real passwords may have
        // A folder of its own: a test may secure several endpoints in one temporary directory.
        TestCertificates certificates =
                TestCertificates.generate(Files.createTempDirectory(dir, "endpoint"), "endpoint");
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(salt);
        String hash = "sha256:" + hex(salt) + ":" + hex(sha.digest(password.getBytes(StandardCharsets.UTF_8)));
        HttpClient client = HttpClient.newBuilder()
                .sslContext(certificates.clientContextTrustingMe(null))
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        return new SecuredEndpoint(certificates.keystore(), TestCertificates.PASSWORD, password, hash, client);
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b));
        }
        return out.toString();
    }

    /** The agent options that turn on TLS and basic auth with this certificate and password hash. */
    String agentOptions() {
        return "tls.keystore=" + keystore + ",tls.keystore.password=" + storePassword + ",auth.user=" + USER
                + ",auth.password.hash=" + hash;
    }

    HttpClient client() {
        return client;
    }

    String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A GET over TLS with or without the credentials. */
    HttpResponse<String> get(URI uri, boolean withCredentials) throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        if (withCredentials) {
            request.header("Authorization", authorization());
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
