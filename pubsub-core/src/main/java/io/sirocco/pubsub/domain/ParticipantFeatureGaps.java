package io.sirocco.pubsub.domain;

import java.util.Collection;
import java.util.List;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.filtered.ContentFilteredTopicImpl;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.domain.DomainParticipantQos;
import org.omg.dds.topic.ContentFilteredTopic;
import org.omg.dds.topic.MultiTopic;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicListener;
import org.omg.dds.topic.TopicQos;
import org.omg.dds.type.TypeSupport;
import org.omg.dds.type.dynamic.DynamicType;

/**
 * The DomainParticipant operations Sirocco does not implement yet (XTypes dynamic types, MultiTopic), each throwing
 * UnsupportedOperationException that names itself, and ContentFilteredTopic creation (one call to
 * {@code topic.filtered}). Kept apart from
 * {@code ParticipantImpl} so that what is missing is listed in one place; a feature that lands moves out of here.
 *
 * <p>Threads: any; no state.
 */
abstract class ParticipantFeatureGaps extends EntityBase<DomainParticipantListener, DomainParticipantQos>
    implements ParticipantView
{
    ParticipantFeatureGaps(final SiroccoServiceEnvironment env, final long guid, final DomainParticipantQos qos,
        final DomainParticipantListener listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
    }

    /** Narrowed for DomainParticipant (EntityBase's is a wildcard) here, where the class becomes one. */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<DomainParticipant> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type, final TopicQos qos,
        final TopicListener<DynamicType> listener, final Collection<Class<? extends Status>> statuses)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type,
        final TypeSupport<DynamicType> typeSupport)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type,
        final TypeSupport<DynamicType> typeSupport, final TopicQos qos, final TopicListener<DynamicType> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        throw dynamicTypes(topicName);
    }

    private UnsupportedOperationException dynamicTypes(final String topicName)
    {
        return new UnsupportedOperationException(describe() + ": createTopic('" + topicName + "') with an XTypes " +
            "DynamicType is not implemented yet; use an IDL-generated type");
    }

    @Override
    public <TYPE> ContentFilteredTopic<TYPE> createContentFilteredTopic(final String name,
        final Topic<? extends TYPE> relatedTopic, final String filterExpression, final List<String> parameters)
    {
        if (!(relatedTopic instanceof TopicImpl<?> related) || related.getParent() != this)
        {
            throw new IllegalArgumentException(describe() + ": createContentFilteredTopic('" + name + "'): the " +
                "related topic must be a Topic created by this participant");
        }
        @SuppressWarnings("unchecked")
        final TopicImpl<TYPE> typed = (TopicImpl<TYPE>)related;
        return ContentFilteredTopicImpl.create(name, typed, filterExpression, parameters);
    }

    @Override
    public <TYPE> MultiTopic<TYPE> createMultiTopic(final String name, final Class<TYPE> type,
        final String subscriptionExpression, final List<String> parameters)
    {
        throw new UnsupportedOperationException(describe() + ": MultiTopic '" + name + "' is not implemented in " +
            "Sirocco yet");
    }

    @Override
    public <TYPE> MultiTopic<TYPE> createMultiTopic(final String name, final TypeSupport<TYPE> type,
        final String subscriptionExpression, final List<String> parameters)
    {
        throw new UnsupportedOperationException(describe() + ": MultiTopic '" + name + "' is not implemented in " +
            "Sirocco yet");
    }
}
