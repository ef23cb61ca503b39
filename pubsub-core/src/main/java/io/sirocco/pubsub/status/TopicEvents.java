package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.*;
import org.omg.dds.core.status.*;
import org.omg.dds.topic.Topic;

/**
 * The listener event a Topic raises. Immutable apart from the PSM's source field, set once at construction. Callers
 * name it through {@code Events}.
 */
public interface TopicEvents
{
    final class InconsistentTopicEventImpl<TYPE> extends InconsistentTopicEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final InconsistentTopicStatus status;

        public InconsistentTopicEventImpl(final ServiceEnvironment env, final Topic<TYPE> source, final InconsistentTopicStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public InconsistentTopicStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Topic<TYPE> getSource()
        {
            return (Topic<TYPE>)source;
        }

        @Override
        public InconsistentTopicEventImpl<TYPE> clone()
        {
            return new InconsistentTopicEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }
}
