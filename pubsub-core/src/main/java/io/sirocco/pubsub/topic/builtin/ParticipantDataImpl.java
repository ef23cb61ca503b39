package io.sirocco.pubsub.topic.builtin;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.qos.RecordPolicies;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.*;
import org.omg.dds.topic.*;
import org.omg.dds.type.typeobject.TypeObject;


/** ParticipantBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class ParticipantDataImpl implements ParticipantBuiltinTopicData
{
    private static final long serialVersionUID = 1L;
    private transient ServiceEnvironment env;
    private EndpointRecord record;
    private transient RecordPolicies policies;

    public ParticipantDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        this.env = env;
        this.record = record;
        this.policies = new RecordPolicies(env, record);
    }

    public EndpointRecord record()
    {
        return record;
    }

    @Override
    public BuiltinTopicKey getKey()
    {
        return new BuiltinTopicKeyImpl(env, record.guid());
    }

    @Override
    public UserData getUserData()
    {
        return policies.userData();
    }

    @Override
    public void copyFrom(final ParticipantBuiltinTopicData other)
    {
        final ParticipantDataImpl src = (ParticipantDataImpl)other;
        env = src.env;
        record = src.record;
        policies = src.policies;
    }

    @Override
    public ParticipantBuiltinTopicData clone()
    {
        return new ParticipantDataImpl(env, record);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    /** The host and process of the participant (Sirocco extension, for tools). */
    public String hostAndPid()
    {
        return record.hostName() + "/" + record.pid();
    }
}
