package io.queuekit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks ports the kernel reports free on 127.0.0.1. The port is released before redis-server binds it, so
 * another process can still take it; callers retry on "Address already in use". Ports already handed out
 * in this JVM are not handed out again, so parallel starts in one JVM do not race each other.
 */
final class FreePorts {

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    @SuppressWarnings("AddressSelection") // HOST is an IP literal: no lookup, one address
    static int next() {
        IOException last = null;
        for (int i = 0; i < 100; i++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getByName(LocalProcess.HOST), 0));
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                last = e;
            }
        }
        throw new UncheckedIOException(new IOException("no free port on " + LocalProcess.HOST, last));
    }
}
