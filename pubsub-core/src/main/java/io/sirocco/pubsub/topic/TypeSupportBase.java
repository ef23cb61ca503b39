package io.sirocco.pubsub.topic;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.type.TypeSupport;

/**
 * What a topic type's TypeSupport holds whether its samples come from a generated codec ({@link TypeSupportImpl})
 * or from discovery ({@code BuiltinTypeSupport}): the environment, the type class and its registered name.
 * {@code newData} is {@link #newSample}.
 */
public abstract class TypeSupportBase<T> extends TypeSupport<T> implements SampleOps<T>
{
    private final ServiceEnvironment env;
    private final Class<T> type;
    private final String typeName;

    protected TypeSupportBase(final ServiceEnvironment env, final Class<T> type, final String typeName)
    {
        this.env = env;
        this.type = type;
        this.typeName = typeName;
    }

    @Override
    public T newData()
    {
        return newSample();
    }

    @Override
    public Class<T> getType()
    {
        return type;
    }

    @Override
    public String getTypeName()
    {
        return typeName;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
