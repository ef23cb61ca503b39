package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.*;

/**
 * The status snapshot of a Topic: immutable, so handed to any thread. Callers name it through {@code Statuses}.
 */
public interface TopicStatuses
{
    final class InconsistentTopicStatusImpl extends InconsistentTopicStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        public InconsistentTopicStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
        }

        @Override
        public int getTotalCount()
        {
            return totalCount;
        }

        @Override
        public int getTotalCountChange()
        {
            return totalCountChange;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "InconsistentTopicStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + "]";
        }
    }
}
