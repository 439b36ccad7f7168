package io.queuekit.spring.boot;

import java.util.concurrent.ThreadFactory;

/**
 * A factory of virtual threads for the listeners' workers under
 * {@code spring.threads.virtual.enabled=true}. Made reflectively, as
 * {@code Thread.ofVirtual().factory()}, so that the starter still runs on Java 17, where Spring
 * Boot does not apply the property and this is never called.
 */
final class VirtualThreads {
    /** The bean of the factory, which the listener container gives its consumers when there is one. */
    static final String BEAN = "queuekitWorkerThreadFactory";

    private VirtualThreads() {}

    static ThreadFactory factory() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            return (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                    .getMethod("factory")
                    .invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "spring.threads.virtual.enabled=true, but Java " + Runtime.version() + " has no virtual threads",
                    e);
        }
    }
}
