package io.queuekit.testing;

import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import redis.clients.jedis.UnifiedJedis;

/**
 * What {@link RedisServerTest} registers. The class where it is registered (the outermost one, when
 * {@code @Nested} classes inherit it) owns one {@link Resources} in its store: a server and a client made on
 * first use, closed in that class's {@code afterAll}. Nested classes and every test find the same one
 * through the store's parent chain.
 */
final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisServerExtension.class);
    private static final String KEY = "resources";

    @Override
    public void beforeAll(ExtensionContext context) {
        resources(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        Resources resources = store.get(KEY, Resources.class);
        if (resources != null && resources.owner.equals(context.getUniqueId())) {
            store.remove(KEY);
            resources.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        // RedisClient by name: Jedis 7.0 has no such class, and the test may run on it
        return type == RedisServer.class || type == UnifiedJedis.class || JedisVersions.isRedisClient(type);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Resources resources = resources(context);
        try {
            return parameter.getParameter().getType() == RedisServer.class ? resources.server() : resources.client();
        } catch (RuntimeException e) {
            throw new ParameterResolutionException(
                    "no Redis for " + parameter.getParameter() + " of "
                            + context.getRequiredTestClass().getName() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * The resources of the class being run, found in its store or an enclosing class's; else made and
     * owned by the class-level context ({@code beforeAll}, or the constructor of a
     * {@code @TestInstance(PER_CLASS)} class, which runs before it).
     */
    private static Resources resources(ExtensionContext context) {
        Resources found = context.getStore(NAMESPACE).get(KEY, Resources.class);
        if (found != null) {
            return found;
        }
        ExtensionContext owner = context;
        while (owner.getTestMethod().isPresent() && owner.getParent().isPresent()) {
            owner = owner.getParent().get();
        }
        RedisServerTest annotation = owner.getRequiredTestClass().getAnnotation(RedisServerTest.class); // @Inherited
        RedisServerTest.Server scope = annotation == null ? RedisServerTest.Server.SHARED : annotation.server();
        Resources made = new Resources(owner.getUniqueId(), scope);
        // also AutoCloseable: JUnit closes what a store still holds when its context ends
        owner.getStore(NAMESPACE).put(KEY, made);
        return made;
    }

    /** One class's server and client, made on first use; closing is idempotent and closes the client first. */
    static final class Resources implements AutoCloseable {
        private final String owner;
        private final RedisServerTest.Server scope;
        private RedisServer server;
        private UnifiedJedis client;
        private boolean closed;

        Resources(String owner, RedisServerTest.Server scope) {
            this.owner = Objects.requireNonNull(owner);
            this.scope = Objects.requireNonNull(scope);
        }

        synchronized RedisServer server() {
            checkOpen();
            if (server == null) {
                server = scope == RedisServerTest.Server.SHARED
                        ? RedisServer.shared()
                        : RedisServer.builder().requireProcessControl().start();
            }
            return server;
        }

        synchronized UnifiedJedis client() {
            checkOpen();
            if (client == null) {
                client = RedisClients.pooled(server());
            }
            return client;
        }

        private void checkOpen() {
            if (closed) {
                throw new IllegalStateException("the Redis of " + owner + " was closed after its last test");
            }
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (client != null) {
                    client.close();
                }
            } finally {
                if (server != null) {
                    server.close(); // does nothing on the shared server
                }
            }
        }
    }
}
