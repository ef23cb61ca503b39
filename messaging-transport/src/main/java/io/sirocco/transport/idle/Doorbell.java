package io.sirocco.transport.idle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes one parked consumer thread. The consumer calls {@link #prepareToPark()}, re-checks its queue, then
 * {@link #park(long)}; a producer calls {@link #ring()} after publishing work. The {@code armed} flag is volatile on
 * both sides (a Dekker pair with the queue): either the consumer's re-check sees the work, or the producer sees the
 * flag and unparks. Producers pay one volatile read when the consumer is not parked.
 */
public final class Doorbell
{
    private static final VarHandle ARMED;

    static
    {
        try
        {
            ARMED = MethodHandles.lookup().findVarHandle(Doorbell.class, "armed", boolean.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Thread owner;
    @SuppressWarnings("unused")
    private volatile boolean armed;

    public void owner(final Thread thread)
    {
        owner = thread;
    }

    public void prepareToPark()
    {
        armed = true;
    }

    public void park(final long parkNs)
    {
        LockSupport.parkNanos(this, parkNs);
        armed = false;
    }

    /** True while the owner is about to park or parked (a hint: it may change at once). */
    public boolean armed()
    {
        return armed;
    }

    public void ring()
    {
        if (armed && ARMED.compareAndSet(this, true, false))
        {
            final Thread thread = owner;
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
    }
}
