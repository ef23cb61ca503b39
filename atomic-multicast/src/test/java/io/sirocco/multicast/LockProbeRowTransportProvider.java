package io.sirocco.multicast;

import java.util.concurrent.atomic.AtomicLong;

import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.spi.ForwardingRowTransport;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.local.LocalRowTransportProvider;

/**
 * Test transport {@code probe-local}: the {@code local} transport, counting every push and every push made while the
 * pushing thread holds the sender lock of a watched subgroup ({@link SubgroupEngine#senderLockHeldByCurrentThread()}),
 * for the test of Spindle's push-outside-the-lock. Registered for tests only (src/test/resources).
 *
 * <p>Threads: pushes come from any member's pass; the counters are atomic, {@code watched} is set by the test before
 * the traffic it measures.
 */
public final class LockProbeRowTransportProvider implements RowTransportProvider
{
    static final String NAME = "probe-local";
    static final AtomicLong PUSHES = new AtomicLong();
    static final AtomicLong LOCKED_PUSHES = new AtomicLong();
    static volatile Subgroup[] watched = new Subgroup[0];

    private final LocalRowTransportProvider local = new LocalRowTransportProvider();

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        return new ForwardingRowTransport(local.open(context))
        {
            @Override
            public void pushBytes(final long rowOffset, final long lengthBytes)
            {
                count();
                super.pushBytes(rowOffset, lengthBytes);
            }

            @Override
            public void pushCounters(final long rowOffset, final int count)
            {
                count();
                super.pushCounters(rowOffset, count);
            }

            @Override
            public void pushGuard(final long rowOffset, final long value)
            {
                count();
                super.pushGuard(rowOffset, value);
            }
        };
    }

    private static void count()
    {
        PUSHES.incrementAndGet();
        for (final Subgroup s : watched)
        {
            final SubgroupEngine engine = s.currentEngine();
            if (engine != null && engine.senderLockHeldByCurrentThread())
            {
                LOCKED_PUSHES.incrementAndGet();
                return;
            }
        }
    }
}
