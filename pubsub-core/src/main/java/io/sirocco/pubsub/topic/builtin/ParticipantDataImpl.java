package io.sirocco.pubsub.topic.builtin;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.UserData;
import org.omg.dds.topic.ParticipantBuiltinTopicData;

/** ParticipantBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class ParticipantDataImpl extends RecordData implements ParticipantBuiltinTopicData
{
    private static final long serialVersionUID = 1L;

    public ParticipantDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    @Override
    public UserData getUserData()
    {
        return policies().userData();
    }

    @Override
    public void copyFrom(final ParticipantBuiltinTopicData other)
    {
        copy((ParticipantDataImpl)other);
    }

    @Override
    public ParticipantBuiltinTopicData clone()
    {
        return new ParticipantDataImpl(getEnvironment(), record());
    }

    /** The host and process of the participant (Sirocco extension, for tools). */
    public String hostAndPid()
    {
        return record().hostName() + "/" + record().pid();
    }
}
