package io.sirocco.ib.row;

import java.util.List;
import java.util.function.Supplier;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;

/**
 * Test provider {@code rdma-fake}: the real {@link RdmaRowTransportProvider}, {@link RdmaRowTransport} set-up,
 * {@link io.sirocco.ib.bootstrap.ControlExchange} and {@link PushPlanner}, with only the verbs replaced by
 * {@link FakeRdmaFabric} and the control endpoints on messaging-transport's loopback transport. One fabric and one
 * loopback fabric for the JVM (a group creates one provider per member).
 */
public final class FakeRdmaRowTransportProvider implements RowTransportProvider
{
    static final FakeRdmaFabric FABRIC = new FakeRdmaFabric();
    static final LoopbackFabric CONTROL = new LoopbackFabric();

    private final RdmaRowTransportProvider delegate = provider(FABRIC, CONTROL);

    /** The real provider over the given fake fabrics. */
    static RdmaRowTransportProvider provider(final FakeRdmaFabric fabric, final LoopbackFabric control)
    {
        return new RdmaRowTransportProvider(fakeDevice(),
            (group, self) -> new TransportContext().ownNodeId(RowControlEndpoint.nodeId(self.memberId()))
                .transport("loopback").loopbackFabric(control).handlerThreads(1).ringBufferBytes(1 << 16)
                .flowControlWindowBytes(1 << 16),
            fabric::view, config());
    }

    /** An availability probe that reports one (fake) device. */
    static Supplier<RdmaAvailability> fakeDevice()
    {
        final RdmaAvailability one = new RdmaAvailability(true, List.of(new Libibverbs.DeviceHandle(0, "fake0", 1)),
            "");
        return () -> one;
    }

    /** Signal every 4, queue depth 16, 64 inline bytes, 30 s completion and exchange deadlines. */
    static RdmaRowConfig config()
    {
        return new RdmaRowConfig("", RdmaRowConfig.fromSystemProperties().queuePair(),
            new PushPlannerConfig(4, 16, 64, 30_000_000_000L), 30_000);
    }

    @Override
    public String name()
    {
        return "rdma-fake";
    }

    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        delegate.prepareAvailable(groupName, self);
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        return delegate.openAvailable(context);
    }
}
