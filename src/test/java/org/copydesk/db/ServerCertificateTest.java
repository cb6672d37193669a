package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded server's certificate is made in this process: the packaged runtime has no
 * {@code bin/} (jpackage strips the JDK's commands), so a {@code keytool} it might run is not there.
 */
class ServerCertificateTest {

    @Test
    void theCertificateIsMadeWithoutAnyJdkToolAndNamesThisComputer() throws Exception {
        Path folder = Files.createTempDirectory("certificate"); // under target/tmp in the build
        java.security.Security.getProviders(); // the JDK's own configuration, read before java.home moves
        java.security.KeyStore.getInstance("PKCS12");
        String javaHome = System.getProperty("java.home");
        Path runtimeWithoutTools = Files.createDirectories(folder.resolve("runtime-without-bin"));
        System.setProperty("java.home", runtimeWithoutTools.toString()); // as in the installed package: no bin/keytool
        ServerCertificate certificate;
        try {
            certificate = ServerCertificate.ensure(folder, "192.0.2.10");
        } finally {
            System.setProperty("java.home", javaHome);
        }

        X509Certificate x509 = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(certificate.certificate())));
        List<String> names = x509.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1))).toList();
        assertThat(names).contains("localhost", "127.0.0.1", "192.0.2.10");
        assertThat(x509.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(Duration.between(Instant.now(), x509.getNotAfter().toInstant()).toDays()).isBetween(3640L, 3660L);
        x509.verify(x509.getPublicKey()); // self-signed
        assertThat(Files.getPosixFilePermissions(certificate.key())).containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE);

        // the key file is the certificate's key, in the PKCS#8 PEM MariaDB reads
        String pem = Files.readString(certificate.key(), StandardCharsets.US_ASCII);
        assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----");
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder()
                .decode(pem.replaceAll("-----[A-Z ]+-----", ""))));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(x509);
        verifier.update(new byte[] {1, 2, 3});
        assertThat(verifier.verify(signature)).isTrue();

        assertThat(ServerCertificate.ensure(folder, "192.0.2.10").sha256Fingerprint()).as("made once, then kept")
                .isEqualTo(certificate.sha256Fingerprint());
    }
}
