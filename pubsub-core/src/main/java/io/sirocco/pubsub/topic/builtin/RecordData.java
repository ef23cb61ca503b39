package io.sirocco.pubsub.topic.builtin;

import java.io.Serializable;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.qos.RecordPolicies;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.topic.BuiltinTopicKey;

/**
 * What the four built-in topic data classes share: the discovery record each is built from, the policies read from
 * it, the key and the environment. Immutable apart from {@link #copy}, which the subclasses' {@code copyFrom} call.
 */
abstract class RecordData implements Serializable
{
    private static final long serialVersionUID = 1L;
    private transient ServiceEnvironment env;
    private EndpointRecord record;
    private transient RecordPolicies policies;

    RecordData(final ServiceEnvironment env, final EndpointRecord record)
    {
        this.env = env;
        this.record = record;
        this.policies = new RecordPolicies(env, record);
    }

    public EndpointRecord record()
    {
        return record;
    }

    protected RecordPolicies policies()
    {
        return policies;
    }

    public BuiltinTopicKey getKey()
    {
        return new BuiltinTopicKeyImpl(env, record.guid());
    }

    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    /** Takes over another data object of the same class (the {@code copyFrom} of the PSM). */
    protected final void copy(final RecordData src)
    {
        env = src.env;
        record = src.record;
        policies = src.policies;
    }
}
