package io.sirocco.dds.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.omg.dds.core.ServiceEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the DDS {@link ServiceEnvironment} without the application naming an implementation. The PSM's
 * {@code ServiceEnvironment.createInstance} needs the system property {@code org.omg.dds.serviceClassName}; when it
 * is unset, this helper looks for implementations registered through {@link ServiceLoader}
 * ({@code META-INF/services/org.omg.dds.core.ServiceEnvironment}) and, when there is exactly one, sets the property
 * to it (logged) before delegating to the PSM.
 */
public final class ServiceBootstrap
{
    private static final Logger LOG = LoggerFactory.getLogger(ServiceBootstrap.class);

    private ServiceBootstrap()
    {
    }

    public static ServiceEnvironment createEnvironment(final ClassLoader classLoader)
    {
        return createEnvironment(classLoader, Map.of());
    }

    /**
     * An environment with its own settings (they win over system properties and environment variables): a command or
     * library that wants a setting for its own participants passes it here rather than setting a system property,
     * which would change every environment made later in the same JVM.
     */
    public static ServiceEnvironment createEnvironment(final ClassLoader classLoader,
        final Map<String, Object> settings)
    {
        final String property = ServiceEnvironment.IMPLEMENTATION_CLASS_NAME_PROPERTY;
        if (System.getProperty(property) == null)
        {
            final List<String> found = new ArrayList<>();
            for (final ServiceLoader.Provider<ServiceEnvironment> provider :
                ServiceLoader.load(ServiceEnvironment.class, classLoader).stream().toList())
            {
                found.add(provider.type().getName());
            }
            if (found.size() != 1)
            {
                throw new IllegalStateException("cannot choose a DDS implementation: " + property + " is unset and " +
                    found.size() + " are registered on the class path " + found);
            }
            LOG.info("{} unset: using the only DDS implementation on the class path, {}", property, found.get(0));
            System.setProperty(property, found.get(0));
        }
        return ServiceEnvironment.createInstance(property, settings, classLoader);
    }
}
