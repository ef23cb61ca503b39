package io.sirocco.pubsub.status;

import java.util.Set;

import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.status.*;

/**
 * The status snapshots of a DataWriter: immutable, so handed to any thread. Callers name them through
 * {@code Statuses}.
 */
public interface WriterStatuses
{
    final class LivelinessLostStatusImpl extends LivelinessLostStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        public LivelinessLostStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange)
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
            return "LivelinessLostStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + "]";
        }
    }

    final class OfferedDeadlineMissedStatusImpl extends OfferedDeadlineMissedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final InstanceHandle lastInstanceHandle;
        public OfferedDeadlineMissedStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final InstanceHandle lastInstanceHandle)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
            this.lastInstanceHandle = lastInstanceHandle;
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
        public InstanceHandle getLastInstanceHandle()
        {
            return lastInstanceHandle;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "OfferedDeadlineMissedStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "lastInstanceHandle=" + lastInstanceHandle + "]";
        }
    }

    final class OfferedIncompatibleQosStatusImpl extends OfferedIncompatibleQosStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final Class<? extends QosPolicy> lastPolicyClass;
        private final Set<QosPolicyCount> policies;
        public OfferedIncompatibleQosStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final Class<? extends QosPolicy> lastPolicyClass, final Set<QosPolicyCount> policies)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
            this.lastPolicyClass = lastPolicyClass;
            this.policies = policies;
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
        public Class<? extends QosPolicy> getLastPolicyClass()
        {
            return lastPolicyClass;
        }

        @Override
        public Set<QosPolicyCount> getPolicies()
        {
            return policies;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "OfferedIncompatibleQosStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "lastPolicyClass=" + lastPolicyClass + ", " + "policies=" + policies + "]";
        }
    }

    final class PublicationMatchedStatusImpl extends PublicationMatchedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final int currentCount;
        private final int currentCountChange;
        private final InstanceHandle lastSubscriptionHandle;
        public PublicationMatchedStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final int currentCount, final int currentCountChange, final InstanceHandle lastSubscriptionHandle)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
            this.currentCount = currentCount;
            this.currentCountChange = currentCountChange;
            this.lastSubscriptionHandle = lastSubscriptionHandle;
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
        public int getCurrentCount()
        {
            return currentCount;
        }

        @Override
        public int getCurrentCountChange()
        {
            return currentCountChange;
        }

        @Override
        public InstanceHandle getLastSubscriptionHandle()
        {
            return lastSubscriptionHandle;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "PublicationMatchedStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "currentCount=" + currentCount + ", " + "currentCountChange=" + currentCountChange + ", " + "lastSubscriptionHandle=" + lastSubscriptionHandle + "]";
        }
    }
}
