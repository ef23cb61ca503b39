package io.sirocco.pubsub.qos;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DataRepresentation;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.GroupData;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.LatencyBudget;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.OwnershipStrength;
import org.omg.dds.core.policy.Partition;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.ReaderDataLifecycle;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.policy.TimeBasedFilter;
import org.omg.dds.core.policy.TopicData;
import org.omg.dds.core.policy.TransportPriority;
import org.omg.dds.core.policy.TypeConsistencyEnforcement;
import org.omg.dds.core.policy.UserData;
import org.omg.dds.core.policy.WriterDataLifecycle;

/**
 * Immutable implementations of every QoS policy of the PSM. Each {@code withX} returns a new policy. Defaults are
 * the DDS 1.4 defaults (writer RELIABLE with 100 ms max_blocking_time is applied by the writer QoS, not here).
 * Equality is by value so that QoS objects compare naturally.
 */
public final class Policies
{
    private Policies()
    {
    }

    /** The policy interface a Sirocco policy implements: the key of the QoS map. */
    public interface PolicyImpl extends QosPolicy
    {
        Class<? extends QosPolicy> policyClass();
    }

    abstract static class Base implements PolicyImpl
    {
        private static final long serialVersionUID = 1L;
        final transient ServiceEnvironment env;

        Base(final ServiceEnvironment env)
        {
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        abstract Object[] values();

        @Override
        public boolean equals(final Object other)
        {
            return other != null && other.getClass() == getClass() && Arrays.deepEquals(values(), ((Base)other).values());
        }

        @Override
        public int hashCode()
        {
            return Arrays.deepHashCode(values());
        }

        @Override
        public String toString()
        {
            return policyClass().getSimpleName() + Arrays.deepToString(values());
        }
    }

    static Duration dur(final ServiceEnvironment env, final long ns)
    {
        return new DurationImpl(env, ns);
    }

    public static final class DurabilityImpl extends Base implements Durability
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

    public static final class DeadlineImpl extends Base implements Deadline
    {
        private static final long serialVersionUID = 1L;
        private final long periodNs;

        public DeadlineImpl(final ServiceEnvironment env, final long periodNs)
        {
            super(env);
            this.periodNs = periodNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Deadline.class;
        }

        Object[] values()
        {
            return new Object[] {periodNs};
        }

        public long periodNs()
        {
            return periodNs;
        }

        public Duration getPeriod()
        {
            return dur(env, periodNs);
        }

        public Deadline withPeriod(final Duration period)
        {
            return new DeadlineImpl(env, DurationImpl.toNanos(period));
        }

        public Deadline withPeriod(final long period, final TimeUnit unit)
        {
            return new DeadlineImpl(env, unit.toNanos(period));
        }

        public Comparable<Deadline> requestedOfferedContract()
        {
            return this;
        }

        /** A shorter period is a stronger offer, so it compares greater. */
        public int compareTo(final Deadline o)
        {
            return Long.compare(DurationImpl.toNanos(o.getPeriod()), periodNs);
        }
    }

    public static final class LatencyBudgetImpl extends Base implements LatencyBudget
    {
        private static final long serialVersionUID = 1L;
        private final long durationNs;

        public LatencyBudgetImpl(final ServiceEnvironment env, final long durationNs)
        {
            super(env);
            this.durationNs = durationNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return LatencyBudget.class;
        }

        Object[] values()
        {
            return new Object[] {durationNs};
        }

        public Duration getDuration()
        {
            return dur(env, durationNs);
        }

        public LatencyBudget withDuration(final Duration d)
        {
            return new LatencyBudgetImpl(env, DurationImpl.toNanos(d));
        }

        public LatencyBudget withDuration(final long d, final TimeUnit unit)
        {
            return new LatencyBudgetImpl(env, unit.toNanos(d));
        }

        public Comparable<LatencyBudget> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final LatencyBudget o)
        {
            return Long.compare(DurationImpl.toNanos(o.getDuration()), durationNs);
        }
    }

    public static final class LivelinessImpl extends Base implements Liveliness
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;
        private final long leaseNs;

        public LivelinessImpl(final ServiceEnvironment env, final Kind kind, final long leaseNs)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "Liveliness kind");
            this.leaseNs = leaseNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Liveliness.class;
        }

        Object[] values()
        {
            return new Object[] {kind, leaseNs};
        }

        public Kind getKind()
        {
            return kind;
        }

        public Duration getLeaseDuration()
        {
            return dur(env, leaseNs);
        }

        public Liveliness withKind(final Kind k)
        {
            return new LivelinessImpl(env, k, leaseNs);
        }

        public Liveliness withLeaseDuration(final Duration d)
        {
            return new LivelinessImpl(env, kind, DurationImpl.toNanos(d));
        }

        public Liveliness withLeaseDuration(final long d, final TimeUnit unit)
        {
            return new LivelinessImpl(env, kind, unit.toNanos(d));
        }

        public Liveliness withAutomatic()
        {
            return withKind(Kind.AUTOMATIC);
        }

        public Liveliness withManualByParticipant()
        {
            return withKind(Kind.MANUAL_BY_PARTICIPANT);
        }

        public Liveliness withManualByTopic()
        {
            return withKind(Kind.MANUAL_BY_TOPIC);
        }

        public Comparable<Liveliness> requestedOfferedContract()
        {
            return this;
        }

        /** Stronger kind, then shorter lease, compares greater. */
        public int compareTo(final Liveliness o)
        {
            final int byKind = kind.compareTo(o.getKind());
            return byKind != 0 ? byKind : Long.compare(DurationImpl.toNanos(o.getLeaseDuration()), leaseNs);
        }
    }

    public static final class DestinationOrderImpl extends Base implements DestinationOrder
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

    public static final class HistoryImpl extends Base implements History
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

    public static final class ResourceLimitsImpl extends Base implements ResourceLimits
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

    abstract static class Bytes extends Base
    {
        private static final long serialVersionUID = 1L;
        final byte[] value;

        Bytes(final ServiceEnvironment env, final byte[] value, final int offset, final int length)
        {
            super(env);
            this.value = Arrays.copyOfRange(value, offset, offset + length);
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public byte[] getValue()
        {
            return value.clone();
        }
    }

    public static final class UserDataImpl extends Bytes implements UserData
    {
        private static final long serialVersionUID = 1L;

        public UserDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return UserData.class;
        }

        public UserData withValue(final byte[] v, final int offset, final int length)
        {
            return new UserDataImpl(env, v, offset, length);
        }
    }

    public static final class TopicDataImpl extends Bytes implements TopicData
    {
        private static final long serialVersionUID = 1L;

        public TopicDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TopicData.class;
        }

        public TopicData withValue(final byte[] v, final int offset, final int length)
        {
            return new TopicDataImpl(env, v, offset, length);
        }
    }

    public static final class GroupDataImpl extends Bytes implements GroupData
    {
        private static final long serialVersionUID = 1L;

        public GroupDataImpl(final ServiceEnvironment env, final byte[] v, final int offset, final int length)
        {
            super(env, v, offset, length);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return GroupData.class;
        }

        public GroupData withValue(final byte[] v, final int offset, final int length)
        {
            return new GroupDataImpl(env, v, offset, length);
        }
    }

    public static final class OwnershipImpl extends Base implements Ownership
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public OwnershipImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "Ownership kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Ownership.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public Ownership withKind(final Kind k)
        {
            return new OwnershipImpl(env, k);
        }

        public Ownership withShared()
        {
            return withKind(Kind.SHARED);
        }

        public Ownership withExclusive()
        {
            return withKind(Kind.EXCLUSIVE);
        }

        public Comparable<Ownership> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Ownership o)
        {
            return kind.compareTo(o.getKind());
        }
    }

    public static final class OwnershipStrengthImpl extends Base implements OwnershipStrength
    {
        private static final long serialVersionUID = 1L;
        private final int value;

        public OwnershipStrengthImpl(final ServiceEnvironment env, final int value)
        {
            super(env);
            this.value = value;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return OwnershipStrength.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public int getValue()
        {
            return value;
        }

        public OwnershipStrength withValue(final int v)
        {
            return new OwnershipStrengthImpl(env, v);
        }
    }

    public static final class TimeBasedFilterImpl extends Base implements TimeBasedFilter
    {
        private static final long serialVersionUID = 1L;
        private final long separationNs;

        public TimeBasedFilterImpl(final ServiceEnvironment env, final long separationNs)
        {
            super(env);
            this.separationNs = separationNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TimeBasedFilter.class;
        }

        Object[] values()
        {
            return new Object[] {separationNs};
        }

        public Duration getMinimumSeparation()
        {
            return dur(env, separationNs);
        }

        public TimeBasedFilter withMinimumSeparation(final Duration d)
        {
            return new TimeBasedFilterImpl(env, DurationImpl.toNanos(d));
        }

        public TimeBasedFilter withMinimumSeparation(final long d, final TimeUnit unit)
        {
            return new TimeBasedFilterImpl(env, unit.toNanos(d));
        }
    }

    public static final class ReaderDataLifecycleImpl extends Base implements ReaderDataLifecycle
    {
        private static final long serialVersionUID = 1L;
        private final long noWritersNs;
        private final long disposedNs;

        public ReaderDataLifecycleImpl(final ServiceEnvironment env, final long noWritersNs, final long disposedNs)
        {
            super(env);
            this.noWritersNs = noWritersNs;
            this.disposedNs = disposedNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return ReaderDataLifecycle.class;
        }

        Object[] values()
        {
            return new Object[] {noWritersNs, disposedNs};
        }

        public Duration getAutoPurgeNoWriterSamplesDelay()
        {
            return dur(env, noWritersNs);
        }

        public Duration getAutoPurgeDisposedSamplesDelay()
        {
            return dur(env, disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeNoWriterSamplesDelay(final Duration d)
        {
            return new ReaderDataLifecycleImpl(env, DurationImpl.toNanos(d), disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeNoWriterSamplesDelay(final long d, final TimeUnit unit)
        {
            return new ReaderDataLifecycleImpl(env, unit.toNanos(d), disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeDisposedSamplesDelay(final Duration d)
        {
            return new ReaderDataLifecycleImpl(env, noWritersNs, DurationImpl.toNanos(d));
        }

        public ReaderDataLifecycle withAutoPurgeDisposedSamplesDelay(final long d, final TimeUnit unit)
        {
            return new ReaderDataLifecycleImpl(env, noWritersNs, unit.toNanos(d));
        }
    }

    public static final class RepresentationImpl extends Base implements DataRepresentation
    {
        private static final long serialVersionUID = 1L;
        private final List<Short> value;

        public RepresentationImpl(final ServiceEnvironment env, final List<Short> value)
        {
            super(env);
            this.value = List.copyOf(value);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return DataRepresentation.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public List<Short> getValue()
        {
            return value;
        }

        public DataRepresentation withValue(final List<Short> v)
        {
            return new RepresentationImpl(env, v);
        }

        public DataRepresentation withValue(final short... v)
        {
            final Short[] boxed = new Short[v.length];
            for (int i = 0; i < v.length; i++)
            {
                boxed[i] = v[i];
            }
            return new RepresentationImpl(env, Arrays.asList(boxed));
        }

        public Comparable<DataRepresentation> requestedOfferedContract()
        {
            return this;
        }

        /** Compatible (0) when the offered first representation is among the requested ones. */
        public int compareTo(final DataRepresentation o)
        {
            return value.isEmpty() || o.getValue().isEmpty() || o.getValue().contains(value.get(0)) ||
                value.contains(o.getValue().get(0)) ? 0 : -1;
        }
    }

    public static final class TypeConsistencyImpl extends Base implements TypeConsistencyEnforcement
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public TypeConsistencyImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "TypeConsistencyEnforcement kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TypeConsistencyEnforcement.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public TypeConsistencyEnforcement withKind(final Kind k)
        {
            return new TypeConsistencyImpl(env, k);
        }

        public TypeConsistencyEnforcement withExactTypeTypeConsistency()
        {
            return withKind(Kind.EXACT_TYPE_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withExactNameTypeConsistency()
        {
            return withKind(Kind.EXACT_NAME_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withDeclaredTypeConsistency()
        {
            return withKind(Kind.DECLARED_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withAssignableTypeConsistency()
        {
            return withKind(Kind.ASSIGNABLE_TYPE_CONSISTENCY);
        }

        public Comparable<TypeConsistencyEnforcement> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final TypeConsistencyEnforcement o)
        {
            return 0;
        }
    }

    public static final class DurabilityServiceImpl extends Base implements DurabilityService
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
            return dur(env, cleanupNs);
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

    public static final class ReliabilityImpl extends Base implements Reliability
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
            return dur(env, maxBlockingNs);
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

    public static final class TransportPriorityImpl extends Base implements TransportPriority
    {
        private static final long serialVersionUID = 1L;
        private final int value;

        public TransportPriorityImpl(final ServiceEnvironment env, final int value)
        {
            super(env);
            this.value = value;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TransportPriority.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public int getValue()
        {
            return value;
        }

        public TransportPriority withValue(final int v)
        {
            return new TransportPriorityImpl(env, v);
        }
    }

    public static final class LifespanImpl extends Base implements Lifespan
    {
        private static final long serialVersionUID = 1L;
        private final long durationNs;

        public LifespanImpl(final ServiceEnvironment env, final long durationNs)
        {
            super(env);
            this.durationNs = durationNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Lifespan.class;
        }

        Object[] values()
        {
            return new Object[] {durationNs};
        }

        public Duration getDuration()
        {
            return dur(env, durationNs);
        }

        public Lifespan withDuration(final Duration d)
        {
            return new LifespanImpl(env, DurationImpl.toNanos(d));
        }

        public Lifespan withDuration(final long d, final TimeUnit unit)
        {
            return new LifespanImpl(env, unit.toNanos(d));
        }
    }

    public static final class WriterDataLifecycleImpl extends Base implements WriterDataLifecycle
    {
        private static final long serialVersionUID = 1L;
        private final boolean autodispose;

        public WriterDataLifecycleImpl(final ServiceEnvironment env, final boolean autodispose)
        {
            super(env);
            this.autodispose = autodispose;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return WriterDataLifecycle.class;
        }

        Object[] values()
        {
            return new Object[] {autodispose};
        }

        public boolean isAutDisposeUnregisteredInstances()
        {
            return autodispose;
        }

        public WriterDataLifecycle withAutDisposeUnregisteredInstances(final boolean v)
        {
            return new WriterDataLifecycleImpl(env, v);
        }
    }

    public static final class PartitionImpl extends Base implements Partition
    {
        private static final long serialVersionUID = 1L;
        private final Set<String> names;

        public PartitionImpl(final ServiceEnvironment env, final Collection<String> names)
        {
            super(env);
            this.names = Collections.unmodifiableSet(new TreeSet<>(names));
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Partition.class;
        }

        Object[] values()
        {
            return new Object[] {names.toArray()};
        }

        public Set<String> getName()
        {
            return names;
        }

        public Partition withName(final Collection<String> n)
        {
            return new PartitionImpl(env, n);
        }
    }

    public static final class EntityFactoryImpl extends Base implements EntityFactory
    {
        private static final long serialVersionUID = 1L;
        private final boolean autoEnable;

        public EntityFactoryImpl(final ServiceEnvironment env, final boolean autoEnable)
        {
            super(env);
            this.autoEnable = autoEnable;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return EntityFactory.class;
        }

        Object[] values()
        {
            return new Object[] {autoEnable};
        }

        public boolean isAutoEnableCreatedEntities()
        {
            return autoEnable;
        }

        public EntityFactory withAutoEnableCreatedEntities(final boolean v)
        {
            return new EntityFactoryImpl(env, v);
        }
    }

    public static final class PresentationImpl extends Base implements Presentation
    {
        private static final long serialVersionUID = 1L;
        private final AccessScopeKind scope;
        private final boolean coherent;
        private final boolean ordered;

        public PresentationImpl(final ServiceEnvironment env, final AccessScopeKind scope, final boolean coherent,
            final boolean ordered)
        {
            super(env);
            this.scope = Objects.requireNonNull(scope, "Presentation access scope");
            this.coherent = coherent;
            this.ordered = ordered;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Presentation.class;
        }

        Object[] values()
        {
            return new Object[] {scope, coherent, ordered};
        }

        public AccessScopeKind getAccessScope()
        {
            return scope;
        }

        public boolean isCoherentAccess()
        {
            return coherent;
        }

        public boolean isOrderedAccess()
        {
            return ordered;
        }

        public Presentation withAccessScope(final AccessScopeKind s)
        {
            return new PresentationImpl(env, s, coherent, ordered);
        }

        public Presentation withCoherentAccess(final boolean v)
        {
            return new PresentationImpl(env, scope, v, ordered);
        }

        public Presentation withOrderedAccess(final boolean v)
        {
            return new PresentationImpl(env, scope, coherent, v);
        }

        public Presentation withInstance()
        {
            return withAccessScope(AccessScopeKind.INSTANCE);
        }

        public Presentation withTopic()
        {
            return withAccessScope(AccessScopeKind.TOPIC);
        }

        public Presentation withGroup()
        {
            return withAccessScope(AccessScopeKind.GROUP);
        }

        public Comparable<Presentation> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Presentation o)
        {
            final int byScope = scope.compareTo(o.getAccessScope());
            if (byScope != 0)
            {
                return byScope;
            }
            final int mine = (coherent ? 2 : 0) + (ordered ? 1 : 0);
            final int theirs = (o.isCoherentAccess() ? 2 : 0) + (o.isOrderedAccess() ? 1 : 0);
            return Integer.compare(mine, theirs);
        }
    }
}
