package io.sirocco.pubsub.topic.builtin;

import java.util.Arrays;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.topic.BuiltinTopicKey;

/** A built-in topic key: the entity's 64-bit GUID as {high, low, 0} ints. */
public final class BuiltinTopicKeyImpl implements BuiltinTopicKey
{
    private static final long serialVersionUID = 1L;
    private final transient ServiceEnvironment env;
    private final int[] value;

    public BuiltinTopicKeyImpl(final ServiceEnvironment env, final long guid)
    {
        this.env = env;
        this.value = new int[] {(int)(guid >>> 32), (int)guid, 0};
    }

    public long guid()
    {
        return ((long)value[0] << 32) | (value[1] & 0xFFFFFFFFL);
    }

    @Override
    public int[] getValue()
    {
        return value.clone();
    }

    @Override
    public void copyFrom(final BuiltinTopicKey other)
    {
        System.arraycopy(other.getValue(), 0, value, 0, value.length);
    }

    @Override
    public BuiltinTopicKey clone()
    {
        return new BuiltinTopicKeyImpl(env, guid());
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof BuiltinTopicKeyImpl k && Arrays.equals(k.value, value);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(value);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    @Override
    public String toString()
    {
        return String.format("BuiltinTopicKey(%016x)", guid());
    }
}
