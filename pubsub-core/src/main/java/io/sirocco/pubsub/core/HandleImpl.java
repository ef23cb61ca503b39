package io.sirocco.pubsub.core;

import java.util.concurrent.atomic.AtomicLong;

import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.ServiceEnvironment;

/**
 * An instance handle: a 64-bit value, 0 being nil. Entity handles are the entity's domain-wide GUID; instance
 * handles come from {@link #nextLocal()} and are unique within the process.
 */
public final class HandleImpl extends ModifiableInstanceHandle
{
    private static final long serialVersionUID = 1L;
    private static final AtomicLong LOCAL = new AtomicLong(1L << 62);

    private final transient ServiceEnvironment environment;
    private long value;

    public HandleImpl(final ServiceEnvironment environment, final long value)
    {
        this.environment = environment;
        this.value = value;
    }

    public static long nextLocal()
    {
        return LOCAL.incrementAndGet();
    }

    public static long valueOf(final InstanceHandle handle)
    {
        if (handle == null)
        {
            throw new IllegalArgumentException("null InstanceHandle");
        }
        if (handle instanceof HandleImpl impl)
        {
            return impl.value;
        }
        throw new IllegalArgumentException("InstanceHandle from another DDS implementation: " + handle.getClass());
    }

    public long value()
    {
        return value;
    }

    public void value(final long value)
    {
        this.value = value;
    }

    @Override
    public void copyFrom(final InstanceHandle other)
    {
        value = valueOf(other);
    }

    @Override
    public InstanceHandle immutableCopy()
    {
        return new HandleImpl(environment, value);
    }

    @Override
    public boolean isNil()
    {
        return value == 0;
    }

    @Override
    public ModifiableInstanceHandle modifiableCopy()
    {
        return new HandleImpl(environment, value);
    }

    @Override
    public int compareTo(final InstanceHandle other)
    {
        return Long.compare(value, valueOf(other));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof HandleImpl h && h.value == value;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(value);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return environment;
    }

    @Override
    public String toString()
    {
        return isNil() ? "InstanceHandle(nil)" : String.format("InstanceHandle(%016x)", value);
    }
}
