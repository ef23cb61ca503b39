package io.sirocco.pubsub.qos;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;

/**
 * Reliability, durability, history and the resources and order of delivered samples: the policies that decide which
 * samples a reader gets and how long a writer keeps them. Immutable, so shared freely between threads; see {@link
 * Policies} for what they have in common.
 */
public final class DeliveryPolicies
{
    private DeliveryPolicies()
    {
    }

    public static final class ReliabilityImpl extends Policies.Base implements Reliability
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;
        private final long maxBlockingNs;

        public ReliabilityImpl(final ServiceEnvironment env, final Kind kind, final long maxBlockingNs)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "Reliability kind");
            this.maxBlockingNs = maxBlockingNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Reliability.class;
        }

        Object[] values()
        {
            return new Object[] {kind, maxBlockingNs};
        }

        public long maxBlockingNs()
        {
            return maxBlockingNs;
        }

        public Kind getKind()
        {
            return kind;
        }

        public Duration getMaxBlockingTime()
        {
            return Policies.dur(env, maxBlockingNs);
        }

        public Reliability withKind(final Kind k)
        {
            return new ReliabilityImpl(env, k, maxBlockingNs);
        }

        public Reliability withMaxBlockingTime(final Duration d)
        {
            return new ReliabilityImpl(env, kind, DurationImpl.toNanos(d));
        }

        public Reliability withMaxBlockingTime(final long d, final TimeUnit unit)
        {
            return new ReliabilityImpl(env, kind, unit.toNanos(d));
        }

        public Reliability withBestEffort()
        {
            return withKind(Kind.BEST_EFFORT);
        }

        public Reliability withReliable()
        {
            return withKind(Kind.RELIABLE);
        }

        public Comparable<Reliability> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Reliability o)
        {
            return kind.compareTo(o.getKind());
        }
    }

    public static final class DurabilityImpl extends Policies.Base implements Durability
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public DurabilityImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "Durability kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Durability.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public Durability withKind(final Kind k)
        {
            return new DurabilityImpl(env, k);
        }

        public Durability withVolatile()
        {
            return withKind(Kind.VOLATILE);
        }

        public Durability withTransientLocal()
        {
            return withKind(Kind.TRANSIENT_LOCAL);
        }

        public Durability withTransient()
        {
            return withKind(Kind.TRANSIENT);
        }

        public Durability withPersitent()
        {
            return withKind(Kind.PERSISTENT);
        }

        public Comparable<Durability> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Durability o)
        {
            return kind.compareTo(o.getKind());
        }
    }

    public static final class DurabilityServiceImpl extends Policies.Base implements DurabilityService
    {
        private static final long serialVersionUID = 1L;
        private final long cleanupNs;
        private final History.Kind historyKind;
        private final int depth;
        private final int maxSamples;
        private final int maxInstances;
        private final int maxPerInstance;

        public DurabilityServiceImpl(final ServiceEnvironment env, final long cleanupNs, final History.Kind historyKind,
            final int depth, final int maxSamples, final int maxInstances, final int maxPerInstance)
        {
            super(env);
            this.cleanupNs = cleanupNs;
            this.historyKind = historyKind;
            this.depth = depth;
            this.maxSamples = maxSamples;
            this.maxInstances = maxInstances;
            this.maxPerInstance = maxPerInstance;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return DurabilityService.class;
        }

        Object[] values()
        {
            return new Object[] {cleanupNs, historyKind, depth, maxSamples, maxInstances, maxPerInstance};
        }

        public Duration getServiceCleanupDelay()
        {
            return Policies.dur(env, cleanupNs);
        }

        public History.Kind getHistoryKind()
        {
            return historyKind;
        }

        public int getHistoryDepth()
        {
            return depth;
        }

        public int getMaxSamples()
        {
            return maxSamples;
        }

        public int getMaxInstances()
        {
            return maxInstances;
        }

        public int getMaxSamplesPerInstance()
        {
            return maxPerInstance;
        }

        public DurabilityService withServiceCleanupDelay(final Duration d)
        {
            return new DurabilityServiceImpl(env, DurationImpl.toNanos(d), historyKind, depth, maxSamples,
                maxInstances, maxPerInstance);
        }

        public DurabilityService withServiceCleanupDelay(final long d, final TimeUnit unit)
        {
            return new DurabilityServiceImpl(env, unit.toNanos(d), historyKind, depth, maxSamples, maxInstances,
                maxPerInstance);
        }

        public DurabilityService withHistoryKind(final History.Kind k)
        {
            return new DurabilityServiceImpl(env, cleanupNs, k, depth, maxSamples, maxInstances, maxPerInstance);
        }

        public DurabilityService withHistoryDepth(final int v)
        {
            return new DurabilityServiceImpl(env, cleanupNs, historyKind, v, maxSamples, maxInstances, maxPerInstance);
        }

        public DurabilityService withMaxSamples(final int v)
        {
            return new DurabilityServiceImpl(env, cleanupNs, historyKind, depth, v, maxInstances, maxPerInstance);
        }

        public DurabilityService withMaxInstances(final int v)
        {
            return new DurabilityServiceImpl(env, cleanupNs, historyKind, depth, maxSamples, v, maxPerInstance);
        }

        public DurabilityService withMaxSamplesPerInstance(final int v)
        {
            return new DurabilityServiceImpl(env, cleanupNs, historyKind, depth, maxSamples, maxInstances, v);
        }
    }

    public static final class HistoryImpl extends Policies.Base implements History
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;
        private final int depth;

        public HistoryImpl(final ServiceEnvironment env, final Kind kind, final int depth)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "History kind");
            this.depth = depth;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return History.class;
        }

        Object[] values()
        {
            return new Object[] {kind, depth};
        }

        public Kind getKind()
        {
            return kind;
        }

        public int getDepth()
        {
            return depth;
        }

        public History withKind(final Kind k)
        {
            return new HistoryImpl(env, k, depth);
        }

        public History withDepth(final int d)
        {
            return new HistoryImpl(env, kind, d);
        }

        public History withKeepAll()
        {
            return new HistoryImpl(env, Kind.KEEP_ALL, depth);
        }

        public History withKeepLast(final int d)
        {
            return new HistoryImpl(env, Kind.KEEP_LAST, d);
        }
    }

    public static final class ResourceLimitsImpl extends Policies.Base implements ResourceLimits
    {
        private static final long serialVersionUID = 1L;
        private final int maxSamples;
        private final int maxInstances;
        private final int maxSamplesPerInstance;

        public ResourceLimitsImpl(final ServiceEnvironment env, final int maxSamples, final int maxInstances,
            final int maxSamplesPerInstance)
        {
            super(env);
            this.maxSamples = maxSamples;
            this.maxInstances = maxInstances;
            this.maxSamplesPerInstance = maxSamplesPerInstance;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return ResourceLimits.class;
        }

        Object[] values()
        {
            return new Object[] {maxSamples, maxInstances, maxSamplesPerInstance};
        }

        public int getMaxSamples()
        {
            return maxSamples;
        }

        public int getMaxInstances()
        {
            return maxInstances;
        }

        public int getMaxSamplesPerInstance()
        {
            return maxSamplesPerInstance;
        }

        public ResourceLimits withMaxSamples(final int v)
        {
            return new ResourceLimitsImpl(env, v, maxInstances, maxSamplesPerInstance);
        }

        public ResourceLimits withMaxInstances(final int v)
        {
            return new ResourceLimitsImpl(env, maxSamples, v, maxSamplesPerInstance);
        }

        public ResourceLimits withMaxSamplesPerInstance(final int v)
        {
            return new ResourceLimitsImpl(env, maxSamples, maxInstances, v);
        }
    }

    public static final class DestinationOrderImpl extends Policies.Base implements DestinationOrder
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public DestinationOrderImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "DestinationOrder kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return DestinationOrder.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public DestinationOrder withKind(final Kind k)
        {
            return new DestinationOrderImpl(env, k);
        }

        public DestinationOrder withReceptionTimestamp()
        {
            return withKind(Kind.BY_RECEPTION_TIMESTAMP);
        }

        public DestinationOrder withSourceTimestamp()
        {
            return withKind(Kind.BY_SOURCE_TIMESTAMP);
        }

        public Comparable<DestinationOrder> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final DestinationOrder o)
        {
            return kind.compareTo(o.getKind());
        }
    }
}
