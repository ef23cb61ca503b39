package io.sirocco.tests.dds;

import java.util.Map;

import org.omg.dds.core.ServiceEnvironment;

/**
 * The buses a DDS conformance test runs over: the in-process bus ({@code local}, which bypasses the multicast), and
 * the subgroup bus over the shared-memory SST ({@code shm}) and over tcp rows on loopback ({@code tcp}).
 */
enum DdsTransport
{
    LOCAL(Map.of("sirocco.dds.transport", "local")),
    SHM(Map.of("sirocco.dds.transport", "shm")),
    TCP(Map.of("sirocco.dds.transport", "tcp", "sirocco.dds.interface", "lo"));

    private final Map<String, Object> settings;
    private volatile ServiceEnvironment env;

    DdsTransport(final Map<String, Object> settings)
    {
        this.settings = settings;
    }

    /** The environment of this transport (one per JVM; the shm root comes from the run's RunShmRoot). */
    ServiceEnvironment environment()
    {
        ServiceEnvironment e = env;
        if (e == null)
        {
            synchronized (this)
            {
                e = env;
                if (e == null)
                {
                    e = Dds.environment(settings);
                    env = e;
                }
            }
        }
        return e;
    }

    /** This transport's settings plus {@code more} (an environment of its own). */
    ServiceEnvironment environment(final Map<String, Object> more)
    {
        final java.util.HashMap<String, Object> all = new java.util.HashMap<>(settings);
        all.putAll(more);
        return Dds.environment(all);
    }
}
