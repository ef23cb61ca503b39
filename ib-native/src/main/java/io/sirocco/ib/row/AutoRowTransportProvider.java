package io.sirocco.ib.row;

import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.TransportChoice;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;

/**
 * The {@code auto} row transport: RDMA when this host has libibverbs and a device, otherwise {@code shm} when every
 * member of the view is on this host, otherwise a {@code tcp} provider found through {@link ServiceLoader}. The first
 * fallback logs exactly one INFO line saying what RDMA is missing; later views fall back silently.
 */
public final class AutoRowTransportProvider implements RowTransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = "auto";

    private final Supplier<RdmaAvailability> availability;
    private final Consumer<String> infoLog;
    private final RdmaRowTransportProvider rdma;
    private boolean loggedFallback;

    /** The ServiceLoader constructor: probes the real host, logs through SLF4J. */
    public AutoRowTransportProvider()
    {
        this(RdmaAvailability::probe, RdmaRowTransportProvider.infoLog());
    }

    AutoRowTransportProvider(final Supplier<RdmaAvailability> availability, final Consumer<String> infoLog)
    {
        this.availability = availability;
        this.infoLog = infoLog;
        this.rdma = new RdmaRowTransportProvider(availability);
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /** With RDMA available, binds the RDMA control endpoint now (before the member announces itself). */
    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        if (availability.get().available())
        {
            rdma.prepareAvailable(groupName, self);
        }
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final boolean useRdma = TransportChoice.useRdma(TransportChoice.AUTO, RdmaRowTransportProvider.what(context),
            availability, message ->
            {
                if (!loggedFallback)
                {
                    loggedFallback = true;
                    infoLog.accept(message);
                }
            });
        if (useRdma)
        {
            return rdma.openAvailable(context);
        }
        return fallback(context).open(context);
    }

    private static RowTransportProvider fallback(final RowTransportContext context)
    {
        final String myHost = context.members().get(context.myRank()).host();
        final boolean oneHost = context.members().stream().allMatch(m -> myHost.equals(m.host()));
        if (oneHost)
        {
            return new ShmRowTransportProvider();
        }
        for (final RowTransportProvider provider : ServiceLoader.load(RowTransportProvider.class))
        {
            if ("tcp".equals(provider.name()))
            {
                return provider;
            }
        }
        throw new IllegalStateException("transport 'auto' for group '" + context.groupName() + "': members are on "
            + "several hosts, RDMA is unavailable and no 'tcp' row transport is on the class path");
    }
}
