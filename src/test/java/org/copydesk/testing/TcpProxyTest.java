package org.copydesk.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The proxy the offline tests cut: a cut must leave no way through, also for a connection the
 * proxy was still setting up when the cut came (a pool filling itself up in the background opens
 * one at any moment). One that got through let a window's probe reach the database "through" the
 * cut network and come back online.
 */
class TcpProxyTest {

    @Test
    void aConnectionAcceptedJustBeforeACutDoesNotGetThrough() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Backlog full = Backlog.fill(target);
             TcpProxy proxy = new TcpProxy(target.getInetAddress().getHostAddress(), target.getLocalPort());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            target.setSoTimeout(10_000);
            // the target's backlog is full, so the proxy's connection to it waits for a SYN retransmission (~1 s):
            // the proxy has accepted the client, seen it was not cut, and is connecting onwards when the cut comes
            Await.waitFor(10, () -> connectingOnwards(proxy));
            proxy.cut();
            full.drain(target); // room again: the proxy's connection onwards completes after the cut
            try (Socket upstream = target.accept()) {
                upstream.setSoTimeout(10_000);
                answer(upstream, "through");
            }

            client.setSoTimeout(10_000);
            assertThat(readAll(client)).as("what passed the cut proxy").isEmpty();
        }
    }

    @Test
    void aCutDropsOpenConnectionsAndRestoreLetsNewOnesThrough() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             TcpProxy proxy = new TcpProxy(target.getInetAddress().getHostAddress(), target.getLocalPort());
             Socket before = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
             Socket upstream = target.accept()) {
            before.setSoTimeout(10_000);
            answer(upstream, "hello");
            assertThat(new String(before.getInputStream().readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("hello");

            proxy.cut();
            assertThat(readAll(before)).as("what passed the cut proxy").isEmpty();
            try (Socket during = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                during.setSoTimeout(10_000);
                assertThat(readAll(during)).as("a new connection while cut").isEmpty();
            }

            proxy.restore();
            try (Socket after = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                 Socket upstreamAfter = target.accept()) {
                after.setSoTimeout(10_000);
                answer(upstreamAfter, "again");
                assertThat(new String(after.getInputStream().readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("again");
            }
        }
    }

    /** True while the proxy's accepting thread is in the middle of connecting to the target. */
    private static boolean connectingOnwards(TcpProxy proxy) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().equals("tcp-proxy-" + proxy.port()))
                .flatMap(e -> Arrays.stream(e.getValue()))
                .anyMatch(frame -> frame.getClassName().equals(Socket.class.getName()) && frame.getMethodName().equals("connect"));
    }

    private static void answer(Socket socket, String words) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(words.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException dropped) {
            // the proxy closed it already: nothing can pass, which is what the test wants to see
        }
    }

    /** Everything the socket receives until it is closed: empty for a dropped connection. */
    private static String readAll(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        try {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection is still open 10 s after the cut", e);
        } catch (SocketException reset) {
            return ""; // dropped: reset rather than closed
        }
    }

    /** Connections queued at a listening socket that does not accept them, until its backlog takes no more. */
    private static final class Backlog implements AutoCloseable {
        private final List<Socket> queued = new ArrayList<>();

        static Backlog fill(ServerSocket target) throws IOException {
            Backlog backlog = new Backlog();
            while (backlog.queued.size() < 16) {
                Socket s = new Socket();
                try {
                    // a full backlog drops the connection's SYN and the retransmission after 1 s: not answered
                    // within 1.5 s means full, even on a machine too busy to finish a free one within 300 ms
                    s.connect(new InetSocketAddress(target.getInetAddress(), target.getLocalPort()), 1500);
                } catch (SocketTimeoutException full) {
                    s.close();
                    return backlog;
                }
                backlog.queued.add(s);
            }
            backlog.close();
            throw new IllegalStateException("the listening socket's backlog never filled");
        }

        /** Takes the queued connections off the target's backlog (and ends them): the next connection is let in. */
        void drain(ServerSocket target) throws IOException {
            for (int i = 0; i < queued.size(); i++) {
                target.accept().close();
            }
            close();
        }

        @Override
        public void close() throws IOException {
            for (Socket s : queued) {
                s.close();
            }
        }
    }
}
