package io.sirocco.pubsub.qos;

import java.util.Arrays;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.GroupData;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.TopicData;
import org.omg.dds.core.policy.UserData;

/**
 * The opaque byte-sequence policies an application attaches to its entities (user, topic and group data); each
 * keeps its own copy of the bytes and hands out copies. Immutable, so shared freely between threads; see {@link
 * Policies} for what they have in common.
 */
public final class DataPolicies
{
    private DataPolicies()
    {
    }

    abstract static class Bytes extends Policies.Base
    {
        private static final long serialVersionUID = 1L;
        final byte[] value;

        Bytes(final ServiceEnvironment env, final byte[] value, final int offset, final int length)
        {
            super(env);
            this.value = Arrays.copyOfRange(value, offset, offset + length);
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public byte[] getValue()
        {
            return value.clone();
        }
    }

    public static final class UserDataImpl extends Bytes implements UserData
    {
        private static final long serialVersionUID = 1L;

        public UserDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return UserData.class;
        }

        public UserData withValue(final byte[] v, final int offset, final int length)
        {
            return new UserDataImpl(env, v, offset, length);
        }
    }

    public static final class TopicDataImpl extends Bytes implements TopicData
    {
        private static final long serialVersionUID = 1L;

        public TopicDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TopicData.class;
        }

        public TopicData withValue(final byte[] v, final int offset, final int length)
        {
            return new TopicDataImpl(env, v, offset, length);
        }
    }

    public static final class GroupDataImpl extends Bytes implements GroupData
    {
        private static final long serialVersionUID = 1L;

        public GroupDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return GroupData.class;
        }

        public GroupData withValue(final byte[] v, final int offset, final int length)
        {
            return new GroupDataImpl(env, v, offset, length);
        }
    }
}
