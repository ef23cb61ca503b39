package io.sirocco.pubsub.topic.builtin;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.type.builtin.KeyedString;

/** The PSM's built-in KeyedString value class (a key string and a value string). */
public final class KeyedStringImpl extends KeyedString
{
    private static final long serialVersionUID = 1L;
    private final transient ServiceEnvironment env;
    private String key = "";
    private String value = "";

    public KeyedStringImpl(final ServiceEnvironment env)
    {
        this.env = env;
    }

    @Override
    public KeyedString setKey(final CharSequence k)
    {
        key = k.toString();
        return this;
    }

    @Override
    public String getKey()
    {
        return key;
    }

    @Override
    public KeyedString setValue(final CharSequence v)
    {
        value = v.toString();
        return this;
    }

    @Override
    public String getValue()
    {
        return value;
    }

    @Override
    public void copyFrom(final KeyedString other)
    {
        key = other.getKey();
        value = other.getValue();
    }

    @Override
    public KeyedString clone()
    {
        final KeyedStringImpl copy = new KeyedStringImpl(env);
        copy.copyFrom(this);
        return copy;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
