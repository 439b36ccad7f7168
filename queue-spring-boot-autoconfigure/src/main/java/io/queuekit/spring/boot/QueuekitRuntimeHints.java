package io.queuekit.spring.boot;

import java.util.Collection;
import java.util.List;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.core.ResolvableType;

/**
 * What a native image of an application with queuekit needs beyond what its code shows: the Lua
 * scripts the Redis queues load as resources, the properties {@link QueueRegistrar} binds and the
 * methods {@link VirtualThreads} calls, for every application; and, from {@link #registerQueues}, the listener and
 * {@link QueueSchedule} methods the starter calls
 * by reflection and the payload types the JSON codec binds, for the application's own queues.
 */
final class QueuekitRuntimeHints implements RuntimeHintsRegistrar {
    /** The scripts of queue-redis-core and the Redis transports (list, zset, stream), with their includes. */
    static final String LUA_SCRIPTS = "io/queuekit/redis/**/*.lua";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(LUA_SCRIPTS);
        BindableRuntimeHintsRegistrar.forTypes(
                        QueuekitProperties.Queue.class,
                        ScheduleProperties.class,
                        StreamProperties.class,
                        QueuekitProperties.InMemory.class,
                        QueuekitProperties.Health.class)
                .registerHints(hints, classLoader);
        // VirtualThreads calls Thread.ofVirtual().factory() reflectively
        hints.reflection()
                .registerType(Thread.class, type -> type.withMethod("ofVirtual", List.of(), ExecutableMode.INVOKE))
                .registerType(
                        TypeReference.of("java.lang.Thread$Builder"),
                        type -> type.withMethod("factory", List.of(), ExecutableMode.INVOKE));
    }

    /**
     * The hints of the queues an application declares: each listener method and the class of its
     * bean (which the listener lookup loads by name at run time), and each payload type that is
     * encoded as JSON, with the types it is made of.
     */
    static void registerQueues(RuntimeHints hints, QueueDefinitions definitions, Collection<Class<?>> listenerBeans) {
        listenerBeans.forEach(hints.reflection()::registerType);
        for (ListenerMethod listener : definitions.listeners) {
            hints.reflection().registerMethod(listener.method(), ExecutableMode.INVOKE);
        }
        for (ScheduledMethod scheduled : definitions.scheduledMethods.values()) {
            hints.reflection().registerMethod(scheduled.method(), ExecutableMode.INVOKE);
        }
        BindingReflectionHintsRegistrar json = new BindingReflectionHintsRegistrar();
        for (QueueDefinitions.Definition queue : definitions.queues.values()) {
            ResolvableType payload = queue.payloadType();
            Class<?> raw = payload.resolve(Object.class);
            if (raw != String.class && raw != byte[].class) {
                json.registerReflectionHints(hints.reflection(), payload.getType());
            }
        }
    }
}
