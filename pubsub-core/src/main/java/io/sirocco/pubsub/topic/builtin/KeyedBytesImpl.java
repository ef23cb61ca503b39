package io.sirocco.pubsub.topic.builtin;

import java.util.Arrays;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.type.builtin.KeyedBytes;

/** The PSM's built-in KeyedBytes value class (a key string and a byte array). */
public final class KeyedBytesImpl extends KeyedBytes
{
    private static final long serialVersionUID = 1L;
    private final transient ServiceEnvironment env;
    private String key = "";
    private byte[] value = new byte[0];

    public KeyedBytesImpl(final ServiceEnvironment env)
    {
        this.env = env;
    }

    @Override
    public String getKey()
    {
        return key;
    }

    @Override
    public KeyedBytes setKey(final CharSequence k)
    {
        key = k.toString();
        return this;
    }

    @Override
    public byte[] getValue()
    {
        return value;
    }

    @Override
    public KeyedBytes setValue(final byte[] v)
    {
        value = v.clone();
        return this;
    }

    @Override
    public KeyedBytes setValue(final byte[] v, final int offset, final int length)
    {
        value = Arrays.copyOfRange(v, offset, offset + length);
        return this;
    }

    @Override
    public void copyFrom(final KeyedBytes other)
    {
        key = other.getKey();
        value = other.getValue().clone();
    }

    @Override
    public KeyedBytes clone()
    {
        final KeyedBytesImpl copy = new KeyedBytesImpl(env);
        copy.copyFrom(this);
        return copy;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
