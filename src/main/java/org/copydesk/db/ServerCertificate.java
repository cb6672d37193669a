package org.copydesk.db;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The TLS certificate of the embedded server when it is shared beyond this computer
 * ({@code copydesk server --bind}). Made once with the JDK's {@code keytool} (a self-signed RSA
 * certificate for ten years, naming this computer), kept in {@code tls/} beside the server's data;
 * an admin may replace {@code server-cert.pem} and {@code server-key.pem} with a certificate of
 * their own. Clients pin it: {@code copydesk-server.p12} holds only the certificate, and the JDBC
 * URL printed by {@code copydesk server} makes Connector/J verify the server against it.
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
            try (OutputStream out = Files.newOutputStream(truststore)) {
                trust.store(out, TRUSTSTORE_PASSWORD.toCharArray());
            }
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
        Path store = tls.resolve("server-keypair.p12");
        Files.deleteIfExists(store);
        char[] password = RandomPasswords.of(24); // for the key pair's temporary store only
        List<String> names = new ArrayList<>(List.of("dns:localhost", "ip:127.0.0.1"));
        try {
            names.add("dns:" + InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            // no host name: clients verify the CA (the pinned certificate), not the name
        }
        if (!bindAddress.equals("0.0.0.0") && !bindAddress.equals("::") && !bindAddress.equals("*")) {
            names.add((bindAddress.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':') ? "ip:" : "dns:")
                    + bindAddress);
        }
        String keytool = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows") ? "keytool.exe" : "keytool")
                .toString();
        List<String> command = List.of(keytool, "-genkeypair", "-alias", "copydesk", "-keyalg", "RSA", "-keysize", "2048",
                "-validity", "3650", "-dname", "CN=Copydesk embedded server", "-ext", "SAN=" + String.join(",", names),
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass:env", "COPYDESK_KEYTOOL_PASSWORD",
                "-keypass:env", "COPYDESK_KEYTOOL_PASSWORD", "-noprompt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("COPYDESK_KEYTOOL_PASSWORD", new String(password));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("keytool failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the certificate", e);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, password);
        }
        PrivateKey privateKey = (PrivateKey) keys.getKey("copydesk", password);
        Certificate certificate = keys.getCertificate("copydesk");
        writePem(key, "PRIVATE KEY", privateKey.getEncoded(), true);
        writePem(cert, "CERTIFICATE", certificate.getEncoded(), false);
        Files.delete(store);
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
