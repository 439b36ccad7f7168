package io.queuekit.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on the loopback interface that can make connections die silently: frozen
 * connections stay open at both ends but no byte passes in either direction, as when a NAT or a
 * load balancer forgets a connection, or a server's machine vanishes without a FIN or RST.
 *
 * <p>{@link #freezeExisting()} freezes the connections open now and lets new ones through (the
 * route is fine, the old connections are dead); {@link #freezeAll()} also freezes every connection
 * accepted from then on (the whole route is a black hole); {@link #resume()} lets bytes pass again
 * on every connection that is still open.
 */
final class FreezingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean freezeNew;
    private volatile boolean closed;

    FreezingProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, "freezing-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String host() {
        return server.getInetAddress().getHostAddress();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    void freezeExisting() {
        links.forEach(l -> l.frozen = true);
    }

    void freezeAll() {
        freezeNew = true;
        freezeExisting();
    }

    void resume() {
        freezeNew = false;
        for (Link l : links) {
            synchronized (l) {
                l.frozen = false;
                l.notifyAll();
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Socket upstream = new Socket(targetHost, targetPort);
                Link link = new Link(client, upstream);
                link.frozen = freezeNew;
                links.add(link);
                link.start();
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.forEach(Link::close);
    }

    /** One proxied connection: two pumps that hold what they read while the link is frozen. */
    private final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean frozen;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void start() throws IOException {
            pump(client.getInputStream(), upstream.getOutputStream(), "up");
            pump(upstream.getInputStream(), client.getOutputStream(), "down");
        }

        private void pump(InputStream in, OutputStream out, String direction) {
            Thread t = new Thread(
                    () -> {
                        byte[] buf = new byte[16 * 1024];
                        try {
                            for (int n; (n = in.read(buf)) >= 0; ) {
                                synchronized (this) {
                                    while (frozen && !closed) {
                                        wait(100);
                                    }
                                }
                                if (closed) {
                                    return;
                                }
                                out.write(buf, 0, n);
                                out.flush();
                            }
                        } catch (IOException | InterruptedException e) {
                            // the connection ended
                        } finally {
                            if (!frozen) {
                                close();
                            }
                        }
                    },
                    "freezing-proxy-" + direction);
            t.setDaemon(true);
            t.start();
        }

        void close() {
            links.remove(this);
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                upstream.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
