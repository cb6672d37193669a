package org.copydesk.db;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The TLS certificate of the embedded server when it is shared beyond this computer
 * ({@code copydesk server --bind}). Made once in this process (a self-signed RSA certificate for ten
 * years, naming this computer; see {@link #selfSigned}), kept in {@code tls/} beside the server's data;
 * an admin may replace {@code server-cert.pem} and {@code server-key.pem} with a certificate of
 * their own. Clients pin it: {@code copydesk-server.p12} holds only the certificate, and the JDBC
 * URL printed by {@code copydesk server} makes Connector/J verify the server against it.
 *
 * <p>MariaDB 11.4's own "zero-configuration" certificate is not used: the server makes a new one at
 * every start (12-17 s here, and nothing stable for clients to pin), and only MariaDB's own
 * connectors verify it (through the account's password); Connector/J cannot.
 *
 * @param certificate the server's certificate (PEM), for {@code mariadbd --ssl-cert}
 * @param key         its private key (PEM, PKCS#8), for {@code --ssl-key}; readable by the OS user only
 * @param truststore  a PKCS#12 file with the certificate alone, for clients
 */
public record ServerCertificate(Path certificate, Path key, Path truststore, String sha256Fingerprint) {

    /** The truststore's password: it protects nothing secret (the file holds a public certificate). */
    public static final String TRUSTSTORE_PASSWORD = "copydesk";

    /** The certificate in {@code folder/tls}, made now if there is none. */
    static ServerCertificate ensure(Path folder, String bindAddress) {
        Path tls = folder.resolve("tls");
        Path cert = tls.resolve("server-cert.pem");
        Path key = tls.resolve("server-key.pem");
        try {
            Files.createDirectories(tls);
            RootSecret.ownerOnly(tls);
            if (!Files.exists(cert) || !Files.exists(key)) {
                generate(tls, cert, key, bindAddress);
            }
            Certificate certificate = CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(cert)));
            Path truststore = tls.resolve("copydesk-server.p12");
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("copydesk-server", certificate);
            // written aside and moved into place: a client (or the test beside the server) may be reading
            // the file while another process that serves this folder writes it again
            Path written = Files.createTempFile(tls, "copydesk-server", ".p12.part");
            try (OutputStream out = Files.newOutputStream(written)) {
                trust.store(out, TRUSTSTORE_PASSWORD.toCharArray());
            }
            Files.move(written, truststore, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new ServerCertificate(cert, key, truststore, fingerprint(certificate));
        } catch (IOException | GeneralSecurityException e) {
            throw new DatabaseSetupException("Cannot prepare the embedded server's TLS certificate in " + tls + ": "
                    + e.getMessage() + ". You can put your own in server-cert.pem and server-key.pem there.", e);
        }
    }

    /** The JDBC URL a client uses to reach this server, verifying it against the truststore. */
    public String clientUrl(String host, int port, String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database + "?sslMode=VERIFY_CA&trustCertificateKeyStoreUrl="
                + truststore.toUri() + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword="
                + TRUSTSTORE_PASSWORD;
    }

    private static void generate(Path tls, Path cert, Path key, String bindAddress) throws IOException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        X509Certificate certificate = selfSigned(pair, subjectNames(bindAddress), Instant.now());
        writePem(key, "PRIVATE KEY", pair.getPrivate().getEncoded(), true);
        writePem(cert, "CERTIFICATE", certificate.getEncoded(), false);
    }

    /** localhost, 127.0.0.1, this computer's name and the address listened on (unless it is every address). */
    static List<GeneralName> subjectNames(String bindAddress) {
        List<GeneralName> names = new ArrayList<>(List.of(new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        try {
            names.add(new GeneralName(GeneralName.dNSName, InetAddress.getLocalHost().getHostName()));
        } catch (IOException e) {
            // no host name: clients verify the CA (the pinned certificate), not the name
        }
        if (!bindAddress.equals("0.0.0.0") && !bindAddress.equals("::") && !bindAddress.equals("*")) {
            boolean ip = bindAddress.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':');
            names.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, bindAddress));
        }
        return names;
    }

    /**
     * A self-signed RSA certificate for ten years, made in this process with BouncyCastle (the packaged
     * runtime has no {@code keytool}); a server certificate only (no CA rights).
     */
    static X509Certificate selfSigned(KeyPair pair, List<GeneralName> names, Instant now) throws GeneralSecurityException, IOException {
        X500Name subject = new X500Name("CN=Copydesk embedded server");
        BigInteger serial = new BigInteger(63, new SecureRandom());
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial,
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(3650))), subject, pair.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        try {
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign the certificate: " + e.getMessage(), e);
        }
    }

    private static void writePem(Path file, String type, byte[] der, boolean secret) throws IOException {
        String pem = "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(tmp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String fingerprint(Certificate certificate) throws GeneralSecurityException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    }
}
