package io.sirocco.pubsub;

import java.util.Map;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.pubsub.core.SiroccoSpi;
import org.omg.dds.core.ServiceEnvironment;

/**
 * Sirocco's entry point for the OMG DDS Java 5 PSM. Select it with
 * {@code -Dorg.omg.dds.serviceClassName=io.sirocco.pubsub.SiroccoServiceEnvironment}, or call
 * {@code io.sirocco.dds.config.ServiceBootstrap.createEnvironment(loader)}, which picks it when it is the only
 * implementation on the class path.
 */
public final class SiroccoServiceEnvironment extends ServiceEnvironment
{
    private final SiroccoConfig config;
    private final SiroccoSpi spi;

    public SiroccoServiceEnvironment()
    {
        this(Map.of());
    }

    public SiroccoServiceEnvironment(final Map<String, Object> environment)
    {
        this.config = SiroccoConfig.from(environment);
        this.spi = new SiroccoSpi(this);
    }

    public SiroccoConfig config()
    {
        return config;
    }

    @Override
    public SiroccoSpi getSPI()
    {
        return spi;
    }
}
