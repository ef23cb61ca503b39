package io.sirocco.transport.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * The paper's three phases: spin (work arrives within nanoseconds), then yield (the CPU is overprovisioned), then
 * park with a period doubling from {@code minParkNs} to {@code maxParkNs} (long idle). The thresholds are
 * configuration ({@code sirocco.transport.idle.*}).
 */
public final class BackoffIdleStrategy implements IdleStrategy
{
    private final long spins;
    private final long yieldsEnd;
    private final long minParkNs;
    private final long maxParkNs;
    private long count;
    private long parkNs;

    public BackoffIdleStrategy(final int spins, final int yields, final long minParkNs, final long maxParkNs)
    {
        this.spins = spins;
        this.yieldsEnd = (long)spins + yields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    @Override
    public void idle()
    {
        if (count < spins)
        {
            count++;
            Thread.onSpinWait();
        }
        else if (count < yieldsEnd)
        {
            count++;
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    @Override
    public boolean parking()
    {
        return count >= yieldsEnd;
    }

    @Override
    public void reset()
    {
        count = 0;
        parkNs = minParkNs;
    }
}
