package io.sirocco.ib.row;

import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaSelection;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;
import io.sirocco.multicast.spi.tcp.TcpRowTransportProvider;

/**
 * The {@code auto} row transport: RDMA when this host has libibverbs and a device, otherwise {@code shm} when every
 * member of the view is on this host, otherwise {@code tcp}. The first fallback logs exactly one INFO line saying
 * what RDMA is missing; later views fall back silently. A group creates one provider per member.
 *
 * <p>Without RDMA, a member with an {@code endpoint} binds its tcp endpoint in {@link #prepare} (before it announces
 * itself, as the tcp transport requires, since a later view may span hosts) and this provider shuts that endpoint
 * down when the member's last table closes (a group shuts tcp endpoints down itself only for transport {@code tcp}).
 *
 * <p>Threading: {@link #prepare} and {@link #open} on the joining thread, then the predicate thread; the count of
 * open tables is guarded by {@code this} (a table may close on another thread).
 */
public final class AutoRowTransportProvider implements RowTransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = "auto";

    private final Supplier<RdmaAvailability> availability;
    private final Consumer<String> infoLog;
    private final RdmaRowTransportProvider rdma;
    private final TcpRowTransportProvider tcp = new TcpRowTransportProvider();
    private boolean loggedFallback;
    private String tcpGroup;
    private long tcpMemberId;
    private int openTables;

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

    /** Binds the RDMA control endpoint, or without RDMA the tcp endpoint (when this member has an endpoint). */
    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        if (availability.get().available())
        {
            rdma.prepareAvailable(groupName, self);
        }
        else if (null != self.endpoint() && !self.endpoint().isEmpty())
        {
            prepareTcp(groupName, self);
        }
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final boolean useRdma = RdmaSelection.useRdma(RdmaSelection.AUTO, RdmaRowTransportProvider.what(context),
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
        final String myHost = context.members().get(context.myRank()).host();
        final boolean oneHost = context.members().stream().allMatch(m -> myHost.equals(m.host()));
        final RowTransport opened;
        if (oneHost)
        {
            opened = new ShmRowTransportProvider().open(context);
        }
        else
        {
            prepareTcp(context.groupName(), context.members().get(context.myRank()));
            opened = tcp.open(context);
        }
        synchronized (this)
        {
            openTables++;
        }
        return new ClosingRowTransport(opened, this::tableClosed);
    }

    private void prepareTcp(final String groupName, final RowTransportContext.MemberAddress self)
    {
        tcp.prepare(groupName, self);
        synchronized (this)
        {
            tcpGroup = groupName;
            tcpMemberId = self.memberId();
        }
    }

    private synchronized void tableClosed()
    {
        if (--openTables == 0 && null != tcpGroup)
        {
            TcpRowTransportProvider.shutdown(tcpGroup, tcpMemberId);
            tcpGroup = null;
        }
    }
}
