package io.sirocco.pubsub.topic;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.bus.BusMessage;
import org.omg.dds.core.ServiceEnvironment;

/**
 * The PSM TypeSupport of a topic type, wrapping its {@link TypeCodec}. The codec is found once, when the
 * TypeSupport is made: the IDL compiler generates {@code <Type>TypeSupport} beside each type with a
 * {@code public static final INSTANCE}. Nothing reflective happens on the data path.
 */
public final class TypeSupportImpl<T> extends TypeSupportBase<T>
{
    private final TypeCodec<T> codec;

    public TypeSupportImpl(final ServiceEnvironment env, final TypeCodec<T> codec, final String registeredName)
    {
        super(env, codec.type(), registeredName != null && !registeredName.isEmpty() ? registeredName :
            codec.typeName());
        this.codec = codec;
    }

    public static <T> TypeSupportImpl<T> forClass(final ServiceEnvironment env, final Class<T> type,
        final String registeredName)
    {
        return new TypeSupportImpl<>(env, findCodec(type), registeredName);
    }

    @SuppressWarnings("unchecked")
    public static <T> TypeCodec<T> findCodec(final Class<T> type)
    {
        if (type == null)
        {
            throw new IllegalArgumentException("TypeSupport: null type class");
        }
        final String supportName = type.getName() + "TypeSupport";
        try
        {
            final Class<?> support = Class.forName(supportName, true, type.getClassLoader());
            final Field instance = support.getField("INSTANCE");
            if (!Modifier.isStatic(instance.getModifiers()) || !(instance.get(null) instanceof TypeCodec<?> codec))
            {
                throw new IllegalArgumentException(supportName + ".INSTANCE is not a static TypeCodec");
            }
            if (codec.type() != type)
            {
                throw new IllegalArgumentException(supportName + ".INSTANCE is the codec of " + codec.type() +
                    ", not of " + type.getName());
            }
            return (TypeCodec<T>)codec;
        }
        catch (final ClassNotFoundException | NoSuchFieldException ex)
        {
            throw new IllegalArgumentException("no TypeSupport for " + type.getName() + ": expected the generated class " +
                supportName + " with a static INSTANCE (run the Sirocco IDL compiler on the type's IDL)", ex);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalArgumentException(supportName + ".INSTANCE is not accessible", ex);
        }
    }

    public TypeCodec<T> codec()
    {
        return codec;
    }

    @Override
    public T newSample()
    {
        return codec.newSample();
    }

    @Override
    public T copy(final T sample)
    {
        return codec.copy(sample);
    }

    @Override
    public boolean isKeyed()
    {
        return codec.isKeyed();
    }

    @Override
    public T deserialize(final BusMessage message, final T reuse)
    {
        return codec.deserialize(message.payloadSegment(), 0, message.payloadLength(), reuse);
    }
}
