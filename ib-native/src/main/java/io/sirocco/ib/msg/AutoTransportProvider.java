package io.sirocco.ib.msg;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sirocco.ib.IbConfiguration;
import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaSelection;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;
import org.slf4j.LoggerFactory;

/**
 * The {@code auto} messaging transport: {@code rdma} when this host has libibverbs and a device, otherwise the
 * fallback provider ({@code nio}, TCP) found through {@link ServiceLoader}, after one INFO line saying what RDMA is
 * missing.
 */
public final class AutoTransportProvider implements TransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = "auto";

    private final Supplier<RdmaAvailability> availability;
    private final Consumer<String> infoLog;
    private final String fallback;

    /**
     * The ServiceLoader constructor: probes the real host, falls back to {@code sirocco.ib.autoFallback}
     * (default {@code nio}).
     */
    public AutoTransportProvider()
    {
        this(RdmaAvailability::probe, LoggerFactory.getLogger(AutoTransportProvider.class)::info,
            IbConfiguration.autoFallback());
    }

    AutoTransportProvider(final Supplier<RdmaAvailability> availability, final Consumer<String> infoLog,
        final String fallback)
    {
        this.availability = availability;
        this.infoLog = infoLog;
        this.fallback = fallback;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Transport create(final TransportContext context)
    {
        if (RdmaSelection.useRdma(RdmaSelection.AUTO, IbTransportProvider.what(context), availability, infoLog))
        {
            return IbTransportProvider.createAvailable(context);
        }
        final List<String> names = new ArrayList<>();
        for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
        {
            if (fallback.equals(provider.name()))
            {
                return provider.create(context);
            }
            names.add(provider.name());
        }
        throw new IllegalStateException("transport 'auto' of node " + context.ownNodeId() + ": RDMA is unavailable "
            + "and the fallback transport '" + fallback + "' is not on the class path (found: " + names + ")");
    }
}
