package io.sirocco.pubsub.topic.builtin;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.*;
import org.omg.dds.topic.BuiltinTopicKey;

/** What the Publication and Subscription built-in data share: the participant, topic and group policies. */
abstract class EndpointRecordData extends TopicRecordData
{
    private static final long serialVersionUID = 1L;

    EndpointRecordData(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    public BuiltinTopicKey getParticipantKey()
    {
        return new BuiltinTopicKeyImpl(getEnvironment(), record().participantGuid());
    }

    public String getTopicName()
    {
        return record().topicName();
    }

    public UserData getUserData()
    {
        return policies().userData();
    }

    public Presentation getPresentation()
    {
        return policies().presentation();
    }

    public Partition getPartition()
    {
        return policies().partition();
    }

    public GroupData getGroupData()
    {
        return policies().groupData();
    }
}
