package io.sirocco.ib.row;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.TransportChoice;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code rdma} row transport, found through {@link java.util.ServiceLoader}. Opening a view on a host without
 * libibverbs or without a device fails with {@link io.sirocco.ib.RdmaUnavailableException} naming what is missing,
 * never with a crash. Each member's {@code endpoint} must be the {@code host:port} its RDMA endpoint exchange listens
 * on during view set-up.
 *
 * <p>Suspicions: the row-transport SPI has no suspicion callback, so a failed or timed-out write is logged at WARN,
 * the row is frozen, and the peer's QP goes to the error state; the peer then fails its writes to us, and the
 * heartbeat timeout suspects whichever side stopped hearing the other.
 */
public final class RdmaRowTransportProvider implements RowTransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = "rdma";

    private static final Logger LOG = LoggerFactory.getLogger(RdmaRowTransportProvider.class);

    private final Supplier<RdmaAvailability> availability;

    /** The ServiceLoader constructor: probes the real host. */
    public RdmaRowTransportProvider()
    {
        this(RdmaAvailability::probe);
    }

    RdmaRowTransportProvider(final Supplier<RdmaAvailability> availability)
    {
        this.availability = availability;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        TransportChoice.useRdma(TransportChoice.RDMA, what(context), availability, LOG::info);
        return openAvailable(context);
    }

    /** Opens on a host already known to have RDMA. */
    RowTransport openAvailable(final RowTransportContext context)
    {
        final InetSocketAddress[] addresses = exchangeAddresses(context);
        final long session = 31L * context.groupName().hashCode() + context.viewId();
        try
        {
            return RdmaRowTransport.open(RdmaRowConfig.fromSystemProperties(), session, context.myRank(),
                context.memberCount(), context.rowLengthBytes(), addresses, (rank, reason) -> LOG.warn(
                    "RDMA writes to member {} (rank {}) of group '{}' view {} failed: {}; row frozen, the heartbeat "
                        + "timeout will suspect it", context.members().get(rank).memberId(), rank,
                    context.groupName(), context.viewId(), reason));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("RDMA row transport of group '" + context.groupName() + "' view "
                + context.viewId() + ": " + ex.getMessage(), ex);
        }
    }

    /** Each member's {@code endpoint} as {@code host:port}; names the member whose endpoint is missing or bad. */
    static InetSocketAddress[] exchangeAddresses(final RowTransportContext context)
    {
        final InetSocketAddress[] addresses = new InetSocketAddress[context.memberCount()];
        for (int rank = 0; rank < addresses.length; rank++)
        {
            final RowTransportContext.MemberAddress member = context.members().get(rank);
            final String endpoint = member.endpoint();
            final int colon = null == endpoint ? -1 : endpoint.lastIndexOf(':');
            try
            {
                if (colon <= 0)
                {
                    throw new NumberFormatException("no host:port");
                }
                addresses[rank] = new InetSocketAddress(endpoint.substring(0, colon),
                    Integer.parseInt(endpoint.substring(colon + 1)));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("transport 'rdma' needs every member's endpoint as host:port for "
                    + "the RDMA endpoint exchange; member " + member.memberId() + " (rank " + rank + ") of group '"
                    + context.groupName() + "' has '" + endpoint + "'", ex);
            }
        }
        return addresses;
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
