package org.copydesk.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of the database, so tests can take the network away and give it
 * back: {@link #cut()} drops every connection and refuses new ones, {@link #restore()} lets them through.
 * A slow or flaky network: {@link #delay(java.time.Duration)} holds every chunk forwarded for that long,
 * {@link #dropChance(double)} closes a connection (both sides) at a random chunk with that probability.
 * Both are off unless set, so existing users see the plain proxy. A frozen server (stopped with
 * SIGSTOP: connections stay open, nothing answers): {@link #freeze()} holds every chunk in either
 * direction until {@link #thaw()}.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;
    private volatile boolean closed;
    private volatile long delayNanos;
    private volatile double dropChance;
    private volatile boolean frozen;
    /** The number of chunks after which the next connection to pass it is closed, once; -1: none. */
    private final AtomicInteger dropAfter = new AtomicInteger(-1);

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (cut) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(targetHost, targetPort);
                if (!admit(client, upstream)) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                AtomicInteger chunks = new AtomicInteger(); // both directions of this connection
                pipe(client, upstream, chunks);
                pipe(upstream, client, chunks);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /**
     * Registers a connection, so that {@link #cut()} drops it, unless the proxy was cut meanwhile;
     * false then. One lock with {@code cut()}: a connection accepted just before a cut and registered
     * just after it would otherwise get through the cut and reach the database on the other side.
     */
    private synchronized boolean admit(Socket client, Socket upstream) {
        if (cut) {
            return false;
        }
        open.add(client);
        open.add(upstream);
        return true;
    }

    private void pipe(Socket from, Socket to, AtomicInteger chunks) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    while (frozen && !closed) {
                        Thread.sleep(5);
                    }
                    long delay = delayNanos;
                    if (delay > 0) {
                        Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
                    }
                    double drop = dropChance;
                    if (drop > 0 && java.util.concurrent.ThreadLocalRandom.current().nextDouble() < drop) {
                        break; // the finally closes both sides: a dropped connection mid-conversation
                    }
                    int at = chunks.incrementAndGet();
                    if (dropAfter.get() == at && dropAfter.compareAndSet(at, -1)) {
                        break; // dropped once, at a chosen point of one conversation
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed: close the other too
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    /** Drops every connection and refuses new ones until {@link #restore()}. */
    public synchronized void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    public void restore() {
        cut = false;
    }

    /**
     * The next connection to pass {@code chunks} chunks (counted in both directions) is closed
     * there, once: a connection killed at a chosen point of a conversation (a sign-in, say).
     */
    public void dropOnceAfter(int chunks) {
        dropAfter.set(chunks);
    }

    /** Connections stay open and new ones are accepted, but nothing passes in either direction until {@link #thaw()}. */
    public void freeze() {
        frozen = true;
    }

    /** Everything held since {@link #freeze()} goes on its way. */
    public void thaw() {
        frozen = false;
    }

    /** Holds every chunk, in either direction, for {@code delay} before passing it on (zero: none). */
    public void delay(java.time.Duration delay) {
        delayNanos = Math.max(0, delay.toNanos());
    }

    /** Closes the connection instead of passing a chunk on, with this probability per chunk (0: never). */
    public void dropChance(double probability) {
        if (probability < 0 || probability > 1) {
            throw new IllegalArgumentException("a probability is between 0 and 1");
        }
        dropChance = probability;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        cut();
        server.close();
    }
}
