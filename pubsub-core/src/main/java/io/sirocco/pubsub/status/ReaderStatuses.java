package io.sirocco.pubsub.status;

import java.util.Set;

import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.status.*;
import org.omg.dds.core.status.SampleRejectedStatus.Kind;

/**
 * The status snapshots of a DataReader (and of a Subscriber's DataOnReaders): immutable, so handed to any thread.
 * Callers name them through {@code Statuses}.
 */
public interface ReaderStatuses
{
    final class DataAvailableStatusImpl extends DataAvailableStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        public DataAvailableStatusImpl(final ServiceEnvironment env)
        {
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "DataAvailableStatus[" + "" + "]";
        }
    }

    final class DataOnReadersStatusImpl extends DataOnReadersStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        public DataOnReadersStatusImpl(final ServiceEnvironment env)
        {
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "DataOnReadersStatus[" + "" + "]";
        }
    }

    final class LivelinessChangedStatusImpl extends LivelinessChangedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int aliveCount;
        private final int notAliveCount;
        private final int aliveCountChange;
        private final int notAliveCountChange;
        private final InstanceHandle lastPublicationHandle;
        public LivelinessChangedStatusImpl(final ServiceEnvironment env, final int aliveCount, final int notAliveCount, final int aliveCountChange, final int notAliveCountChange, final InstanceHandle lastPublicationHandle)
        {
            this.env = env;
            this.aliveCount = aliveCount;
            this.notAliveCount = notAliveCount;
            this.aliveCountChange = aliveCountChange;
            this.notAliveCountChange = notAliveCountChange;
            this.lastPublicationHandle = lastPublicationHandle;
        }

        @Override
        public int getAliveCount()
        {
            return aliveCount;
        }

        @Override
        public int getNotAliveCount()
        {
            return notAliveCount;
        }

        @Override
        public int getAliveCountChange()
        {
            return aliveCountChange;
        }

        @Override
        public int getNotAliveCountChange()
        {
            return notAliveCountChange;
        }

        @Override
        public InstanceHandle getLastPublicationHandle()
        {
            return lastPublicationHandle;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "LivelinessChangedStatus[" + "aliveCount=" + aliveCount + ", " + "notAliveCount=" + notAliveCount + ", " + "aliveCountChange=" + aliveCountChange + ", " + "notAliveCountChange=" + notAliveCountChange + ", " + "lastPublicationHandle=" + lastPublicationHandle + "]";
        }
    }

    final class RequestedDeadlineMissedStatusImpl extends RequestedDeadlineMissedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final InstanceHandle lastInstanceHandle;
        public RequestedDeadlineMissedStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final InstanceHandle lastInstanceHandle)
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
            return "RequestedDeadlineMissedStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "lastInstanceHandle=" + lastInstanceHandle + "]";
        }
    }

    final class RequestedIncompatibleQosStatusImpl extends RequestedIncompatibleQosStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final Class<? extends QosPolicy> lastPolicyClass;
        private final Set<QosPolicyCount> policies;
        public RequestedIncompatibleQosStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final Class<? extends QosPolicy> lastPolicyClass, final Set<QosPolicyCount> policies)
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
            return "RequestedIncompatibleQosStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "lastPolicyClass=" + lastPolicyClass + ", " + "policies=" + policies + "]";
        }
    }

    final class SampleLostStatusImpl extends SampleLostStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        public SampleLostStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange)
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
            return "SampleLostStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + "]";
        }
    }

    final class SampleRejectedStatusImpl extends SampleRejectedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final Kind lastReason;
        private final InstanceHandle lastInstanceHandle;
        public SampleRejectedStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final Kind lastReason, final InstanceHandle lastInstanceHandle)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
            this.lastReason = lastReason;
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
        public Kind getLastReason()
        {
            return lastReason;
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
            return "SampleRejectedStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "lastReason=" + lastReason + ", " + "lastInstanceHandle=" + lastInstanceHandle + "]";
        }
    }

    final class SubscriptionMatchedStatusImpl extends SubscriptionMatchedStatus
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final int totalCount;
        private final int totalCountChange;
        private final int currentCount;
        private final int currentCountChange;
        private final InstanceHandle lastPublicationHandle;
        public SubscriptionMatchedStatusImpl(final ServiceEnvironment env, final int totalCount, final int totalCountChange, final int currentCount, final int currentCountChange, final InstanceHandle lastPublicationHandle)
        {
            this.env = env;
            this.totalCount = totalCount;
            this.totalCountChange = totalCountChange;
            this.currentCount = currentCount;
            this.currentCountChange = currentCountChange;
            this.lastPublicationHandle = lastPublicationHandle;
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
        public InstanceHandle getLastPublicationHandle()
        {
            return lastPublicationHandle;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        @Override
        public String toString()
        {
            return "SubscriptionMatchedStatus[" + "totalCount=" + totalCount + ", " + "totalCountChange=" + totalCountChange + ", " + "currentCount=" + currentCount + ", " + "currentCountChange=" + currentCountChange + ", " + "lastPublicationHandle=" + lastPublicationHandle + "]";
        }
    }
}
