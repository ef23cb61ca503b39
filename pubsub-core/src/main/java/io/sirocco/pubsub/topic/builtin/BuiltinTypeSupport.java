package io.sirocco.pubsub.topic.builtin;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.topic.TypeSupportBase;
import org.omg.dds.core.ServiceEnvironment;

/** The TypeSupport of a built-in topic type: its samples come from discovery, never from bytes. */
public final class BuiltinTypeSupport<T> extends TypeSupportBase<T>
{
    private final Supplier<T> factory;
    private final UnaryOperator<T> copier;

    public BuiltinTypeSupport(final ServiceEnvironment env, final Class<T> type, final String typeName,
        final Supplier<T> factory, final UnaryOperator<T> copier)
    {
        super(env, type, typeName);
        this.factory = factory;
        this.copier = copier;
    }

    @Override
    public T newSample()
    {
        return factory.get();
    }

    @Override
    public T copy(final T sample)
    {
        return copier.apply(sample);
    }

    @Override
    public boolean isKeyed()
    {
        return true;
    }

    @Override
    public T deserialize(final BusMessage message, final T reuse)
    {
        throw new IllegalStateException("built-in topic type " + getTypeName() + " never arrives as bytes");
    }
}
