package io.sirocco.multicast.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds a {@link RowTransportProvider} by name through {@link ServiceLoader}: the built-ins and any other module's
 * transports are registered alike in {@code META-INF/services/io.sirocco.multicast.spi.RowTransportProvider}. Each
 * call loads fresh instances (a provider's per-member state is static in the provider's own class), so callers keep
 * the instance they got. Stateless and thread-safe.
 */
public final class RowTransportProviders
{
    private RowTransportProviders()
    {
    }

    /**
     * @param name the transport's name, e.g. {@code shm}.
     * @return the provider of that name, if one is on the class path.
     */
    public static Optional<RowTransportProvider> find(final String name)
    {
        for (final RowTransportProvider p : ServiceLoader.load(RowTransportProvider.class))
        {
            if (p.name().equals(name))
            {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * @param name the transport's name.
     * @return the provider of that name.
     * @throws IllegalArgumentException when no provider has that name (the message lists the ones that exist).
     */
    public static RowTransportProvider byName(final String name)
    {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no RowTransport named '" + name
            + "' (available: " + String.join(", ", names()) + ")"));
    }

    /** @return the names of every provider on the class path. */
    public static List<String> names()
    {
        final List<String> names = new ArrayList<>();
        ServiceLoader.load(RowTransportProvider.class).forEach(p -> names.add(p.name()));
        return names;
    }
}
