package io.sirocco.ib.msg;

import java.util.function.Supplier;

import io.sirocco.ib.IbConfiguration;
import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaSelection;
import io.sirocco.ib.verbs.QpConfig;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.sirocco.ib.IbConfiguration.*;

/**
 * The {@code rdma} messaging transport, found through {@link java.util.ServiceLoader}
 * ({@code sirocco.transport.name=rdma}). Creating it on a host without libibverbs or without a device fails at
 * startup with {@link io.sirocco.ib.RdmaUnavailableException} naming what is missing.
 */
public final class IbTransportProvider implements TransportProvider
{
    /** The name users select this transport by. */
    public static final String NAME = IbTransport.NAME;

    private static final Logger LOG = LoggerFactory.getLogger(IbTransportProvider.class);

    private final Supplier<RdmaAvailability> availability;

    /** The ServiceLoader constructor: probes the real host. */
    public IbTransportProvider()
    {
        this(RdmaAvailability::probe);
    }

    IbTransportProvider(final Supplier<RdmaAvailability> availability)
    {
        this.availability = availability;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Transport create(final TransportContext context)
    {
        RdmaSelection.useRdma(RdmaSelection.RDMA, what(context), availability, LOG::info);
        return createAvailable(context);
    }

    static Transport createAvailable(final TransportContext context)
    {
        final QpConfig d = QpConfig.messagingDefaults();
        final QpConfig qp = new QpConfig(
            IbConfiguration.intValue(PORT_PROP, d.portNum()),
            IbConfiguration.intValue(GID_INDEX_PROP, d.gidIndex()),
            IbConfiguration.intValue(MTU_PROP, d.mtu()),
            IbConfiguration.intValue(SEND_QUEUE_DEPTH_PROP, d.maxSendWr()), d.maxRecvWr(), d.maxInlineBytes(),
            d.timeout(), d.retryCount(), d.rnrRetry(), d.minRnrTimer());
        return new IbTransport(context, new VerbsMessaging(qp, IbConfiguration.device()),
            IbConfiguration.srqDepth(), IbConfiguration.sendSlots(),
            qp.maxSendWr());
    }

    static String what(final TransportContext context)
    {
        return "messaging transport of node " + context.ownNodeId();
    }
}
