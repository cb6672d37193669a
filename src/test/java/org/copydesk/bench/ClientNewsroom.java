package org.copydesk.bench;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.jooq.DSLContext;

/**
 * K signed-in desktop clients ({@link DesktopClient}), each on its own editor account: some working
 * (Get articles, approve each, again, on a thread each, while {@link #work} is on), the rest idle.
 * Their claims are counted between {@link #startMeasuring()} and {@link #stopMeasuring()}; sign-ins
 * the server refused are kept with its words. {@link IdleClientBenchmark} runs one in its own JVM;
 * {@link EditorFeelBenchmark} runs one in a JVM of its own through {@link #main} ({@link InOwnJvm}),
 * so that the clients' garbage collections and safepoints never stop the measured window's FX thread.
 */
final class ClientNewsroom implements AutoCloseable {

    /** What the working clients did while measured: claim latencies (ns, sorted), rows decided, empty claims. */
    record Figures(long[] claims, long rows, long emptyClaims) {
    }

    private final String url;
    private final List<String> desks;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(8, r -> {
        Thread t = new Thread(r, "desktop-client");
        t.setDaemon(true);
        return t;
    });
    private final Random phase = new Random(29);
    private final AtomicLong errors = new AtomicLong();
    private final List<DesktopClient> working = new ArrayList<>();
    private final List<DesktopClient> idle = new ArrayList<>();
    private final List<Thread> loops = new ArrayList<>();
    private final List<String> refusals = new ArrayList<>();
    private final ConcurrentLinkedQueue<Long> claimLatencies = new ConcurrentLinkedQueue<>();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong emptyClaims = new AtomicLong();
    private volatile boolean work;
    private volatile boolean measuring;
    private volatile boolean stop;

    ClientNewsroom(String url, List<String> desks) {
        this.url = url;
        this.desks = desks;
    }

    /** Editors on {@code desk} with capacity 5 and accounts of their own (passwords from {@link #password}), made by root. */
    static void addEditors(DSLContext root, String desk, List<String> ids) {
        Newsroom newsroom = new Newsroom(root);
        for (String id : ids) {
            newsroom.addEditor(id, id, Role.EDITOR, ClaimBenchmark.BATCH, List.of(desk));
        }
        new AccountAdministration(root).createAccount(ids.get(0), password(ids.get(0)));
        BenchAccounts.likeThat(root, ids.get(0), ids.subList(1, ids.size()), ClientNewsroom::password);
    }

    static char[] password(String id) {
        return (id + "-Idle-bench-1").toCharArray();
    }

    /** Signs in a working client (at the window) and starts its loop, which works while {@link #work} is on. */
    void signInWorking(String id) {
        DesktopClient client = signIn(working, id, DesktopClient.Window.AT_WINDOW);
        if (client != null) {
            Thread loop = loop(client);
            loops.add(loop);
            loop.start();
        }
    }

    /** Signs in an idle client: away, at the window holding nothing, or holding a full hand ({@link DesktopClient.Window}). */
    void signInIdle(String id, DesktopClient.Window window) {
        signIn(idle, id, window);
    }

    private DesktopClient signIn(List<DesktopClient> into, String id, DesktopClient.Window window) {
        try {
            DesktopClient client = DesktopClient.signIn(url, id, password(id), desks, window, scheduler, phase, errors);
            into.add(client);
            return client;
        } catch (RuntimeException e) {
            refusals.add(id + ": " + e.getMessage());
            if (refusals.size() == 1) {
                ClaimBenchmark.say("first sign-in refused: %s", e);
            }
            return null;
        }
    }

    /** A working client's loop: works while {@link #work} is on, counts claims while {@link #measuring}. */
    private Thread loop(DesktopClient client) {
        Thread t = new Thread(() -> {
            int[] claimed = new int[1];
            while (!stop) {
                if (!work) {
                    ClaimBenchmark.sleep(50);
                    continue;
                }
                try {
                    long latency = client.work(claimed);
                    if (measuring) {
                        claimLatencies.add(latency);
                        rows.addAndGet(claimed[0]);
                        emptyClaims.addAndGet(claimed[0] == 0 ? 1 : 0);
                    }
                    if (claimed[0] == 0) {
                        ClaimBenchmark.sleep(100);
                    }
                } catch (RuntimeException e) {
                    if (errors.incrementAndGet() == 1) {
                        ClaimBenchmark.say("first error: %s", e);
                    }
                    ClaimBenchmark.sleep(100);
                }
            }
        }, "working-" + client.id());
        t.setDaemon(true);
        return t;
    }

    void work(boolean on) {
        work = on;
    }

    void startMeasuring() {
        claimLatencies.clear();
        rows.set(0);
        emptyClaims.set(0);
        measuring = true;
    }

    Figures stopMeasuring() {
        measuring = false;
        return new Figures(claimLatencies.stream().mapToLong(Long::longValue).sorted().toArray(), rows.get(), emptyClaims.get());
    }

    /** The idle clients' release service paced as the app runs it ({@code true}) or asking every interval. */
    void pacedRelease(boolean paced) {
        idle.forEach(c -> c.pacedRelease(paced));
    }

    /** The idle clients send only these from now on ({@link DesktopClient#sendOnly}). */
    void idleSendOnly(java.util.Set<DesktopClient.Activity> activities) {
        idle.forEach(c -> c.sendOnly(activities));
    }

    /** The working clients (not working) send only these from now on ({@link DesktopClient#sendOnly}). */
    void workingSendOnly(java.util.Set<DesktopClient.Activity> activities) {
        working.forEach(c -> c.sendOnly(activities));
    }

    /** Signs the idle clients out (their pools closed). */
    void signOutIdle() {
        idle.forEach(DesktopClient::close);
        idle.clear();
    }

    int idleCount() {
        return idle.size();
    }

    List<String> refusals() {
        return refusals;
    }

    long errors() {
        return errors.get();
    }

    @Override
    public void close() {
        stop = true;
        loops.forEach(ClaimBenchmark::join);
        scheduler.shutdownNow();
        Stream.concat(working.stream(), idle.stream()).forEach(DesktopClient::close);
    }

    /**
     * A newsroom in a JVM of its own, driven by {@link InOwnJvm} through standard input and output.
     * Arguments: the server's JDBC URL, the desk, the working clients' ids' prefix and count, the idle
     * ones' prefix and count (idle clients away from the window). Signs them all in, prints
     * {@code ready <signed in> <refused> <first refusal>}, then on each line read: {@code work} (the
     * working clients start), {@code measure} (their claims counted from now), {@code report} (stop working,
     * print {@code figures <rows> <empty claims> <errors>
     * <claim latencies in ns, comma-separated>}); at the end of input it signs them out and exits.
     */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // only the protocol's lines go to standard output
        ClientNewsroom newsroom = new ClientNewsroom(args[0], List.of(args[1]));
        int working = Integer.parseInt(args[3]);
        int idle = Integer.parseInt(args[5]);
        long t0 = System.nanoTime();
        for (int i = 0; i < working; i++) {
            newsroom.signInWorking(args[2] + i);
        }
        for (int i = 0; i < idle; i++) {
            newsroom.signInIdle(args[4] + i, DesktopClient.Window.AWAY);
        }
        ClaimBenchmark.say("client newsroom: %d working and %d idle clients signed in in %.0f s, %d refused", working, idle,
                (System.nanoTime() - t0) / 1e9, newsroom.refusals().size());
        out.println("ready " + (working + idle - newsroom.refusals().size()) + " " + newsroom.refusals().size() + " "
                + (newsroom.refusals().isEmpty() ? "-" : newsroom.refusals().get(0).replace('\n', ' ')));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long errorsBefore = 0;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("work")) {
                newsroom.work(true);
            } else if (line.equals("measure")) {
                errorsBefore = newsroom.errors();
                newsroom.startMeasuring();
            } else if (line.equals("report")) {
                Figures f = newsroom.stopMeasuring();
                newsroom.work(false);
                StringBuilder claims = new StringBuilder();
                for (long c : f.claims()) {
                    claims.append(claims.length() == 0 ? "" : ",").append(c);
                }
                out.println("figures " + f.rows() + " " + f.emptyClaims() + " " + (newsroom.errors() - errorsBefore) + " "
                        + (claims.length() == 0 ? "-" : claims));
            }
        }
        newsroom.close();
        System.exit(0);
    }

    /** The other side of {@link #main}: starts the newsroom's JVM, waits for its sign-ins and drives it. */
    static final class InOwnJvm implements AutoCloseable {

        /** The JVM's sign-ins: how many signed in, how many were refused and the server's words for the first. */
        record SignIns(int signedIn, int refused, String firstRefusal) {
        }

        private final Process process;
        private final BufferedReader lines;
        private final PrintStream commands;
        private SignIns signIns;
        private long errors;

        private InOwnJvm(Process process) {
            this.process = process;
            this.lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        /** Starts the JVM (the same java, class path and logging as this one; 1 GB of heap) and waits until all have signed in. */
        static InOwnJvm start(String url, String desk, String workingPrefix, int working, String idlePrefix, int idle)
                throws IOException {
            List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx1g"));
            for (String property : List.of("java.io.tmpdir", "logback.configurationFile", "copydesk.log.level")) {
                if (System.getProperty(property) != null) {
                    command.add("-D" + property + "=" + System.getProperty(property));
                }
            }
            command.addAll(List.of("-classpath", System.getProperty("java.class.path"), ClientNewsroom.class.getName(), url, desk,
                    workingPrefix, Integer.toString(working), idlePrefix, Integer.toString(idle)));
            InOwnJvm jvm = new InOwnJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
            String[] ready = jvm.expect("ready").split(" ", 4);
            jvm.signIns = new SignIns(Integer.parseInt(ready[1]), Integer.parseInt(ready[2]), ready[3]);
            return jvm;
        }

        SignIns signIns() {
            return signIns;
        }

        void work() {
            commands.println("work");
        }

        void measure() {
            commands.println("measure");
        }

        /** Stops the working clients and returns what they did since {@link #measure()}. */
        Figures report() throws IOException {
            commands.println("report");
            String[] f = expect("figures").split(" ");
            errors = Long.parseLong(f[3]);
            long[] claims = f[4].equals("-") ? new long[0] : Arrays.stream(f[4].split(",")).mapToLong(Long::parseLong).toArray();
            return new Figures(claims, Long.parseLong(f[1]), Long.parseLong(f[2]));
        }

        /** CPU time the clients' JVM has used so far, in milliseconds. */
        long cpuMillis() {
            return process.toHandle().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(0L);
        }

        /** Errors the working clients met in the last measured stretch. */
        long errors() {
            return errors;
        }

        private String expect(String word) throws IOException {
            String line = lines.readLine();
            if (line == null || !line.startsWith(word + " ")) {
                throw new IllegalStateException("the clients' JVM said " + line + " instead of " + word + " (its output is above)");
            }
            return line;
        }

        @Override
        public void close() throws InterruptedException {
            commands.close();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroy();
            }
        }
    }
}
