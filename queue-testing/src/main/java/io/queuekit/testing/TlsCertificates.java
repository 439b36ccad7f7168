package io.queuekit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway CA and a server certificate it signed for {@code 127.0.0.1} and {@code localhost}, made
 * with openssl, for Redis servers with a TLS port.
 *
 * <pre>{@code
 * TlsCertificates certs = TlsCertificates.create(tempDir);   // aborts the test if openssl is missing
 * int tlsPort = TlsCertificates.freePort();
 * RedisServer server = TlsCertificates.startOrSkip(certs.serve(RedisServer.builder(), tlsPort));
 * // clients trust certs.caCertificate() (PEM) or certs.truststore() (PKCS12, truststorePassword())
 * }</pre>
 *
 * A test that needs TLS is skipped, with the reason printed, only when openssl is missing or the
 * redis-server binary was built without TLS: {@link #create(Path)} and {@link #startOrSkip} abort it
 * through a JUnit assumption.
 */
public final class TlsCertificates {
    private static final char[] PASSWORD = "changeit".toCharArray();

    private final Path dir;

    private TlsCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes the CA, the server's key and certificate and a trust store holding the CA in {@code dir};
     * aborts the test if openssl is not on {@code PATH}.
     */
    public static TlsCertificates create(Path dir) {
        try {
            if (openssl(dir, "version") != 0) {
                skip("openssl is not on PATH");
            }
            String ca = dir.resolve("ca").toString();
            String srv = dir.resolve("server").toString();
            Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
            check(openssl(
                    dir,
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-days",
                    "2",
                    "-subj",
                    "/CN=queuekit test CA",
                    "-keyout",
                    ca + ".key",
                    "-out",
                    ca + ".crt"));
            check(openssl(
                    dir,
                    "req",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-subj",
                    "/CN=127.0.0.1",
                    "-keyout",
                    srv + ".key",
                    "-out",
                    srv + ".csr"));
            check(openssl(
                    dir,
                    "x509",
                    "-req",
                    "-in",
                    srv + ".csr",
                    "-CA",
                    ca + ".crt",
                    "-CAkey",
                    ca + ".key",
                    "-CAcreateserial",
                    "-days",
                    "2",
                    "-extfile",
                    dir.resolve("san.ext").toString(),
                    "-out",
                    srv + ".crt"));
            TlsCertificates certificates = new TlsCertificates(dir);
            certificates.writeTruststore();
            return certificates;
        } catch (IOException | GeneralSecurityException e) {
            throw new RedisServerException("could not make TLS certificates in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisServerException("interrupted while making TLS certificates", e);
        }
    }

    /**
     * Adds the directives for a TLS port to {@code builder}: {@code tls-port}, the server's certificate
     * and key, the CA, and no client certificates asked for. The plain port stays open.
     */
    public RedisServer.Builder serve(RedisServer.Builder builder, int tlsPort) {
        return builder.config("tls-port", String.valueOf(tlsPort))
                .config("tls-cert-file", dir.resolve("server.crt").toString())
                .config("tls-key-file", dir.resolve("server.key").toString())
                .config("tls-ca-cert-file", caCertificate().toString())
                .config("tls-auth-clients", "no");
    }

    /**
     * Starts {@code builder}'s server, or aborts the test if its redis-server binary was built without
     * TLS.
     */
    public static RedisServer startOrSkip(RedisServer.Builder builder) {
        try {
            return builder.start();
        } catch (RedisServerException e) {
            String why = String.valueOf(e.getMessage());
            if (why.contains("tls") || why.contains("TLS") || why.contains("Bad directive")) {
                skip("redis-server was built without TLS support: "
                        + why.lines().findFirst().orElse(""));
            }
            throw e;
        }
    }

    /** A port free on 127.0.0.1 for a {@code tls-port}, not handed out before in this JVM. */
    public static int freePort() {
        return FreePorts.next();
    }

    /** The CA's certificate (PEM), the only one a client needs to trust. */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** A PKCS12 trust store holding only the CA, with password {@link #truststorePassword()}. */
    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** The password of {@link #truststore()}. */
    public char[] truststorePassword() {
        return PASSWORD.clone();
    }

    private void writeTruststore() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caCertificate())) {
            trust.setCertificateEntry("queuekit-test-ca", (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        try (OutputStream out = Files.newOutputStream(truststore())) {
            trust.store(out, PASSWORD);
        }
    }

    private static void skip(String why) {
        String message = "TLS test skipped: " + why;
        System.out.println(message);
        Assumptions.abort(message);
    }

    private static void check(int exit) {
        if (exit != 0) {
            throw new RedisServerException("openssl failed with exit status " + exit + "; see openssl.log");
        }
    }

    private static int openssl(Path dir, String... args) throws InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("openssl.log").toFile()))
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        }
    }
}
