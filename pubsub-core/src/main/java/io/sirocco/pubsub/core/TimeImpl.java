package io.sirocco.pubsub.core;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.omg.dds.core.Duration;
import org.omg.dds.core.ModifiableTime;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.Time;

/**
 * A point in time as nanoseconds since the Unix epoch; {@link #INVALID_NS} (-1) is the invalid time. Modifiable, as
 * the PSM's {@link ModifiableTime} requires; entities hand out copies so that no caller shares one.
 */
public final class TimeImpl extends ModifiableTime
{
    private static final long serialVersionUID = 1L;
    public static final long INVALID_NS = -1L;

    private final transient ServiceEnvironment environment;
    private long timeNs;

    public TimeImpl(final ServiceEnvironment environment, final long timeNs)
    {
        this.environment = environment;
        this.timeNs = timeNs;
    }

    public static long toNanos(final Time time)
    {
        if (time == null)
        {
            throw new IllegalArgumentException("null Time");
        }
        if (time instanceof TimeImpl impl)
        {
            return impl.timeNs;
        }
        return time.isValid() ? time.getTime(TimeUnit.NANOSECONDS) : INVALID_NS;
    }

    /** Wall-clock now in nanoseconds; the DDS source timestamp. */
    public static long nowNs()
    {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    public long timeNs()
    {
        return timeNs;
    }

    public void timeNs(final long timeNs)
    {
        this.timeNs = timeNs;
    }

    @Override
    public void copyFrom(final Time other)
    {
        timeNs = toNanos(other);
    }

    @Override
    public Time immutableCopy()
    {
        return new TimeImpl(environment, timeNs);
    }

    @Override
    public void setTime(final long time, final TimeUnit unit)
    {
        timeNs = unit.toNanos(time);
    }

    @Override
    public void add(final Duration duration)
    {
        timeNs += DurationImpl.toNanos(duration);
    }

    @Override
    public void add(final long duration, final TimeUnit unit)
    {
        timeNs += unit.toNanos(duration);
    }

    @Override
    public void subtract(final Duration duration)
    {
        timeNs -= DurationImpl.toNanos(duration);
    }

    @Override
    public void subtract(final long duration, final TimeUnit unit)
    {
        timeNs -= unit.toNanos(duration);
    }

    @Override
    public long getTime(final TimeUnit inThisUnit)
    {
        return inThisUnit.convert(timeNs, TimeUnit.NANOSECONDS);
    }

    @Override
    public long getRemainder(final TimeUnit primaryUnit, final TimeUnit remainderUnit)
    {
        final long whole = primaryUnit.toNanos(primaryUnit.convert(timeNs, TimeUnit.NANOSECONDS));
        return remainderUnit.convert(timeNs - whole, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean isValid()
    {
        return timeNs >= 0;
    }

    @Override
    public ModifiableTime modifiableCopy()
    {
        return new TimeImpl(environment, timeNs);
    }

    @Override
    public int compareTo(final Time other)
    {
        return Long.compare(timeNs, toNanos(other));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Time t && toNanos(t) == timeNs;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(timeNs);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return environment;
    }

    @Override
    public String toString()
    {
        return isValid() ? "Time(" + timeNs + " ns)" : "Time(invalid)";
    }
}
