package io.sirocco.pubsub;

import java.util.Map;
import java.util.ServiceLoader;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.transport.config.UnknownSettings;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;

/**
 * Sirocco's entry point for the OMG DDS Java 5 PSM. Select it with
 * {@code -Dorg.omg.dds.serviceClassName=io.sirocco.pubsub.SiroccoServiceEnvironment}, or call
 * {@code io.sirocco.dds.config.ServiceBootstrap.createEnvironment(loader)}, which picks it when it is the only
 * implementation on the class path.
 *
 * <p>This class depends on nothing else in the module, so that every entity can hold it without a loop: its SPI is
 * found through {@link ServiceLoader} ({@link Spi.Factory}, registered in {@code META-INF/services}) and built once
 * per environment, in the constructor.
 */
public final class SiroccoServiceEnvironment extends ServiceEnvironment
{
    private final SiroccoConfig config;
    private final Spi spi;

    public SiroccoServiceEnvironment()
    {
        this(Map.of());
    }

    public SiroccoServiceEnvironment(final Map<String, Object> environment)
    {
        this.config = SiroccoConfig.from(environment);
        UnknownSettings.warnOnce();
        this.spi = loadFactory().create(this);
    }

    private static Spi.Factory loadFactory()
    {
        return ServiceLoader.load(Spi.Factory.class, SiroccoServiceEnvironment.class.getClassLoader()).findFirst()
            .orElseThrow(() -> new IllegalStateException("SiroccoServiceEnvironment: no " +
                Spi.Factory.class.getName() + " in META-INF/services (pubsub-core's jar is incomplete)"));
    }

    public SiroccoConfig config()
    {
        return config;
    }

    @Override
    public Spi getSPI()
    {
        return spi;
    }

    /** The PSM's service provider interface, with the shared nil handle the entities' statuses use. */
    public interface Spi extends ServiceEnvironment.ServiceProviderInterface
    {
        /** The one nil handle of this environment. */
        InstanceHandle nil();

        /** Builds the SPI of an environment; the implementation is found by {@link ServiceLoader}. */
        interface Factory
        {
            Spi create(SiroccoServiceEnvironment env);
        }
    }
}
