package io.sirocco.ib.row;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaSelection;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.transport.TransportContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code rdma} row transport, found through {@link java.util.ServiceLoader}; a group creates one provider per
 * member. On a host without libibverbs or without a device, {@link #prepare} (before the member announces itself)
 * and {@link #open} fail with {@link io.sirocco.ib.RdmaUnavailableException} naming what is missing, never with a
 * crash.
 *
 * <p>Each member's {@code endpoint} ({@code host:port}) is where its messaging-transport control endpoint listens
 * ({@link RowControlEndpoint}): bound in {@link #prepare}, it carries the queue-pair and table exchange of every
 * view, and closes when the member's last table closes.
 *
 * <p>Threading: {@link #prepare} and {@link #open} run on the joining thread and then the group's predicate thread;
 * the endpoint and its count of open tables are guarded by {@code this} (a table may close on another thread).
 */
public final class RdmaRowTransportProvider implements RowTransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = "rdma";

    private static final Logger LOG = LoggerFactory.getLogger(RdmaRowTransportProvider.class);

    private final Supplier<RdmaAvailability> availability;
    private final BiFunction<String, RowTransportContext.MemberAddress, TransportContext> controlContext;
    private final Function<RowTransportContext, RowViewVerbs> viewVerbs;
    private final RdmaRowConfig config;
    private RowControlEndpoint endpoint;
    private int openTables;

    /** The ServiceLoader constructor: probes the real host, real verbs, {@code nio} control endpoint. */
    public RdmaRowTransportProvider()
    {
        this(RdmaAvailability::probe);
    }

    RdmaRowTransportProvider(final Supplier<RdmaAvailability> availability)
    {
        this(availability, RowControlEndpoint::nioContext, null, RdmaRowConfig.fromSystemProperties());
    }

    /**
     * @param controlContext the messaging context of a member's control endpoint (tests: loopback)
     * @param viewVerbs      the verbs of one view ({@code null}: the real device, {@link VerbsRowView})
     */
    RdmaRowTransportProvider(final Supplier<RdmaAvailability> availability,
        final BiFunction<String, RowTransportContext.MemberAddress, TransportContext> controlContext,
        final Function<RowTransportContext, RowViewVerbs> viewVerbs, final RdmaRowConfig config)
    {
        this.availability = availability;
        this.controlContext = controlContext;
        this.config = config;
        this.viewVerbs = null != viewVerbs ? viewVerbs : context -> new VerbsRowView(config, context.myRank(),
            context.memberCount(), context.rowLengthBytes());
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /** Fails now if RDMA is unavailable; binds this member's control endpoint. */
    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        RdmaSelection.useRdma(RdmaSelection.RDMA, "row transport of group '" + groupName + "'", availability,
            LOG::info);
        prepareAvailable(groupName, self);
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        RdmaSelection.useRdma(RdmaSelection.RDMA, what(context), availability, LOG::info);
        return openAvailable(context);
    }

    /** Binds the control endpoint on a host already known to have RDMA. */
    synchronized void prepareAvailable(final String groupName, final RowTransportContext.MemberAddress self)
    {
        if (null == endpoint)
        {
            endpoint = new RowControlEndpoint(controlContext.apply(groupName, self));
        }
    }

    /** Opens on a host already known to have RDMA. */
    RowTransport openAvailable(final RowTransportContext context)
    {
        prepareAvailable(context.groupName(), context.members().get(context.myRank()));
        final RowControlEndpoint control;
        synchronized (this)
        {
            control = endpoint;
        }
        final int[] nodeIds = control.nodeIds(context);
        final RowViewVerbs verbs = viewVerbs.apply(context);
        try
        {
            final RdmaRowTransport transport = RdmaRowTransport.open(verbs, control.exchange(), nodeIds,
                context.viewId(), context.myRank(), context.rowLengthBytes(), config.push(),
                config.exchangeTimeoutMs(), this::tableClosed);
            synchronized (this)
            {
                openTables++;
            }
            return transport;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("RDMA row transport of group '" + context.groupName() + "' view "
                + context.viewId() + " (rank " + context.myRank() + "): " + ex.getMessage(), ex);
        }
    }

    private synchronized void tableClosed()
    {
        if (--openTables == 0 && null != endpoint)
        {
            endpoint.close();
            endpoint = null;
        }
    }

    static String what(final RowTransportContext context)
    {
        return "row transport of group '" + context.groupName() + "'";
    }

    /** For {@link AutoRowTransportProvider}: the INFO sink used when falling back. */
    static Consumer<String> infoLog()
    {
        return LOG::info;
    }
}
