package io.sirocco.pubsub.core;

import java.util.concurrent.TimeUnit;

import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;

/**
 * An immutable duration held as nanoseconds; {@link Long#MAX_VALUE} is the infinite duration. Arithmetic saturates
 * at infinity rather than overflowing, so that {@code infinite.add(x)} stays infinite.
 */
public final class DurationImpl extends Duration
{
    private static final long serialVersionUID = 1L;
    public static final long INFINITE_NS = Long.MAX_VALUE;

    private final transient ServiceEnvironment environment;
    private final long durationNs;

    public DurationImpl(final ServiceEnvironment environment, final long durationNs)
    {
        if (durationNs < 0)
        {
            throw new IllegalArgumentException("a Duration cannot be negative: " + durationNs + " ns");
        }
        this.environment = environment;
        this.durationNs = durationNs;
    }

    public static DurationImpl of(final ServiceEnvironment environment, final long duration, final TimeUnit unit)
    {
        return new DurationImpl(environment, unit.toNanos(duration));
    }

    /** Nanoseconds of any Duration, whoever implemented it; infinite gives {@link #INFINITE_NS}. */
    public static long toNanos(final Duration duration)
    {
        if (duration == null)
        {
            throw new IllegalArgumentException("null Duration");
        }
        if (duration instanceof DurationImpl impl)
        {
            return impl.durationNs;
        }
        return duration.isInfinite() ? INFINITE_NS : duration.getDuration(TimeUnit.NANOSECONDS);
    }

    public long durationNs()
    {
        return durationNs;
    }

    @Override
    public long getDuration(final TimeUnit inThisUnit)
    {
        return isInfinite() ? Long.MAX_VALUE : inThisUnit.convert(durationNs, TimeUnit.NANOSECONDS);
    }

    @Override
    public long getRemainder(final TimeUnit primaryUnit, final TimeUnit remainderUnit)
    {
        if (isInfinite())
        {
            return 0;
        }
        final long whole = primaryUnit.toNanos(primaryUnit.convert(durationNs, TimeUnit.NANOSECONDS));
        return remainderUnit.convert(durationNs - whole, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean isZero()
    {
        return durationNs == 0;
    }

    @Override
    public boolean isInfinite()
    {
        return durationNs == INFINITE_NS;
    }

    @Override
    public Duration add(final Duration duration)
    {
        return plusNs(toNanos(duration));
    }

    @Override
    public Duration add(final long duration, final TimeUnit unit)
    {
        return plusNs(unit.toNanos(duration));
    }

    @Override
    public Duration subtract(final Duration duration)
    {
        return plusNs(-toNanos(duration));
    }

    @Override
    public Duration subtract(final long duration, final TimeUnit unit)
    {
        return plusNs(-unit.toNanos(duration));
    }

    private Duration plusNs(final long deltaNs)
    {
        if (isInfinite() || deltaNs == INFINITE_NS)
        {
            return new DurationImpl(environment, INFINITE_NS);
        }
        final long sum = durationNs + deltaNs;
        if (deltaNs > 0 && sum < 0)
        {
            return new DurationImpl(environment, INFINITE_NS);
        }
        if (sum < 0)
        {
            throw new IllegalArgumentException("Duration subtraction below zero: " + durationNs + " ns " + deltaNs + " ns");
        }
        return new DurationImpl(environment, sum);
    }

    @Override
    public int compareTo(final Duration other)
    {
        return Long.compare(durationNs, toNanos(other));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Duration d && toNanos(d) == durationNs;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(durationNs);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return environment;
    }

    @Override
    public String toString()
    {
        return isInfinite() ? "Duration(infinite)" : "Duration(" + durationNs + " ns)";
    }
}
