package io.sirocco.transport;

import java.util.ServiceLoader;

/**
 * Creates the {@link MessagingEngine} of a {@link MessagingService}; registered in
 * {@code META-INF/services/io.sirocco.transport.MessagingEngineFactory} by the core package. Looked up once per JVM
 * (the first start); stateless, so any thread may use it.
 */
public interface MessagingEngineFactory
{
    MessagingEngine create(TransportContext context);

    /** The registered factory, the first one found on the class path. */
    static MessagingEngineFactory loaded()
    {
        return Loaded.FACTORY;
    }

    /** Lazy holder: the class loads, and the ServiceLoader runs, on the first {@link #loaded()}. */
    final class Loaded
    {
        private static final MessagingEngineFactory FACTORY = ServiceLoader.load(MessagingEngineFactory.class)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no " + MessagingEngineFactory.class.getName()
                + " registered (is messaging-transport's META-INF/services on the class path?)"));

        private Loaded()
        {
        }
    }
}
