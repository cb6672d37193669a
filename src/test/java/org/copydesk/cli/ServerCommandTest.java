package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.ServerCertificate;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Newsroom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copydesk server} shares the embedded server beyond this computer only once no account
 * still has its published demo password; {@code editors set-password} is how an admin gets there.
 */
class ServerCommandTest {

    private CommandRunner copydesk;

    private CommandRunner.Run run(Map<String, String> extraEnvironment, String... args) {
        return copydesk.run(extraEnvironment, args);
    }

    /** A Copydesk home of this test's own, with the server's binaries but no data and no server running. */
    private AppDirectories useFreshHome() {
        copydesk = CommandRunner.freshHome();
        return copydesk.dirs();
    }

    @AfterEach
    void restoreHome() {
        if (copydesk != null) {
            copydesk.close();
        }
    }

    @Test
    void statusReadsOnlyAndStartsNoServerWhenNoneRuns() throws Exception {
        // before: `copydesk status` started an embedded server and left it running
        AppDirectories dirs = useFreshHome();

        CommandRunner.Run status = run(Map.of(), "status");

        assertThat(status.code()).isEqualTo(1);
        assertThat(status.err()).startsWith("copydesk: No Copydesk server is running on this computer").hasLineCount(1);
        assertThat(EmbeddedServer.findRunning(dirs.embeddedServer())).as("nothing started").isEmpty();
    }

    @Test
    void aLoopbackServerSaysItServesThisComputerOnlyNotAnAddressOthersCannotReach() throws Exception {
        AppDirectories dirs = useFreshHome();
        CompletableFuture<CommandRunner.Run> serving = CompletableFuture.supplyAsync(() -> run(Map.of(), "server"));
        long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (EmbeddedServer.findRunning(dirs.embeddedServer()).isEmpty() && !serving.isDone() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        // it prints where it listens once the schema is in place, which is when status can read it
        while (run(Map.of(), "status").code() != 0 && !serving.isDone() && System.nanoTime() < until) {
            Thread.sleep(500);
        }
        Thread.sleep(500);

        assertThat(run(Map.of(), "server", "--stop").code()).isZero();
        CommandRunner.Run served = serving.get(60, TimeUnit.SECONDS);
        assertThat(served.out()).as(served.err()).contains("running on 127.0.0.1", "this computer only", "jdbc:mysql://127.0.0.1:")
                .doesNotContain("<this computer>");
    }

    @Test
    void refusesToListenBeyondLoopbackWhileDemoPasswordsRemainAndServesOnceTheyAreChanged() throws Exception {
        AppDirectories dirs = useFreshHome();
        // the single-computer demo, as the desktop app makes it on first start
        try (EmbeddedServer server = EmbeddedServer.startOrAttach(EmbeddedServer.Options.desktop(dirs.embeddedServer()));
             Database admin = Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER,
                     server.rootPassword(), null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            DemoNewsroom.prepareSingleComputerDemo(admin.dsl(), new Newsroom(admin.dsl()));
        }

        CommandRunner.Run refused = run(Map.of(), "server", "--bind", "0.0.0.0");

        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("will not listen on 0.0.0.0", "ann, bob, cat, dan, sue, admin",
                "copydesk editors set-password");
        assertThat(EmbeddedServer.findRunning(dirs.embeddedServer())).as("nothing left listening").isEmpty();

        for (String account : DemoNewsroom.DEMO_ACCOUNTS) {
            CommandRunner.Run changed = run(Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, account + "-own-secret-7"), "editors",
                    "set-password", account);
            assertThat(changed.code()).as(changed.err()).isZero();
        }
        assertThat(run(Map.of(), "editors", "set-password", "ann").err()).as("no password given")
                .contains("COPYDESK_NEW_PASSWORD").doesNotContain("Exception");

        CompletableFuture<CommandRunner.Run> serving = CompletableFuture.supplyAsync(() -> run(Map.of(), "server", "--bind", "0.0.0.0"));
        long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        // the command first starts a loopback-only server to check the passwords and stops it again:
        // wait for the shared (TLS) one, or the check's server is taken for it and then vanishes
        while (sharedServer(dirs).isEmpty() && !serving.isDone() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        assertThat(serving.isDone()).as("the server runs: " + (serving.isDone() ? serving.get().err() : "")).isFalse();
        // ready when a person can sign in over the network address's loopback side
        String url = sharedServer(dirs).orElseThrow().userJdbcUrl(Database.EMBEDDED_SCHEMA);
        while (!annSignsIn(url) && !serving.isDone() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        Thread.sleep(500); // the command prints where it listens after its own set-up
        // shared beyond loopback: TLS only, verified against the certificate the command hands out
        EmbeddedServer running = sharedServer(dirs).orElseThrow();
        ServerCertificate certificate = running.certificate().orElseThrow();
        String plain = "jdbc:mysql://127.0.0.1:" + running.port() + "/copydesk?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        assertThatThrownBy(() -> java.sql.DriverManager.getConnection(plain, "ann", "ann-own-secret-7").close())
                .as("an unencrypted connection").isInstanceOf(java.sql.SQLException.class);
        String pinned = certificate.clientUrl("127.0.0.1", running.port(), "copydesk");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(pinned, "ann", "ann-own-secret-7");
             java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_version'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).as("the pinned connection is encrypted").startsWith("TLS");
        }
        Path otherTrust = otherCertificateTruststore();
        String wrongPin = pinned.replace(certificate.truststore().toUri().toString(), otherTrust.toUri().toString());
        assertThatThrownBy(() -> java.sql.DriverManager.getConnection(wrongPin, "ann", "ann-own-secret-7").close())
                .as("a server whose certificate is not the pinned one").isInstanceOf(java.sql.SQLException.class);

        // the same refusals as people meet them through copydesk: one line saying what is wrong
        Map<String, String> annsPassword = Map.of(org.copydesk.db.DatabaseConfigResolver.PASSWORD_ENV, "ann-own-secret-7");
        CommandRunner.Run plainStatus = run(annsPassword, "status", "--db-url", plain, "--db-user", "ann");
        assertThat(plainStatus.err()).hasLineCount(1).contains("accepts TLS connections only");
        CommandRunner.Run wrongStatus = run(annsPassword, "status", "--db-url", wrongPin, "--db-user", "ann");
        assertThat(wrongStatus.err()).hasLineCount(1).contains("is not the one this connection trusts");

        assertThat(run(Map.of(), "server", "--stop").code()).isZero();
        CommandRunner.Run served = serving.get(60, TimeUnit.SECONDS);
        assertThat(served.out()).as(served.err()).contains("running on 0.0.0.0", "TLS connections only",
                certificate.sha256Fingerprint(), "sslMode=VERIFY_CA");
    }

    /** The embedded server when it runs shared beyond this computer (TLS only), not a loopback one. */
    private static java.util.Optional<EmbeddedServer> sharedServer(AppDirectories dirs) {
        return EmbeddedServer.findRunning(dirs.embeddedServer()).filter(s -> s.certificate().isPresent());
    }

    /** A truststore with a certificate of another key (as a server pretending to be ours would have). */
    private static Path otherTrustStoreFor(Path folder) throws Exception {
        Path dir = java.nio.file.Files.createDirectories(folder.resolve("other"));
        Path store = dir.resolve("other.p12");
        java.nio.file.Files.deleteIfExists(store);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=Someone else", "-keystore",
                store.toString(), "-storetype", "PKCS12", "-storepass", "copydesk", "-keypass", "copydesk", "-noprompt")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        // the certificate alone, as a trusted entry: the way our own truststore is made
        java.security.KeyStore pair = java.security.KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(store)) {
            pair.load(in, "copydesk".toCharArray());
        }
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("other", pair.getCertificate("other"));
        Path trustFile = dir.resolve("other-trust.p12");
        try (var out = java.nio.file.Files.newOutputStream(trustFile)) {
            trust.store(out, ServerCertificate.TRUSTSTORE_PASSWORD.toCharArray());
        }
        return trustFile;
    }

    private Path otherCertificateTruststore() throws Exception {
        return otherTrustStoreFor(copydesk.dirs().home());
    }

    private static boolean annSignsIn(String url) {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "ann", "ann-own-secret-7");
             java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM article")) {
            return rs.next();
        } catch (java.sql.SQLException e) {
            return false;
        }
    }
}
