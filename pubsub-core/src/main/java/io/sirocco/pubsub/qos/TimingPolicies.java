package io.sirocco.pubsub.qos;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.LatencyBudget;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.TimeBasedFilter;

/**
 * The time-based policies: deadline, latency budget, liveliness, time-based filter and lifespan; each keeps its
 * duration in nanoseconds. Immutable, so shared freely between threads; see {@link Policies} for what they have in
 * common.
 */
public final class TimingPolicies
{
    private TimingPolicies()
    {
    }

    public static final class DeadlineImpl extends Policies.Base implements Deadline
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
            return Policies.dur(env, periodNs);
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

    public static final class LatencyBudgetImpl extends Policies.Base implements LatencyBudget
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
            return Policies.dur(env, durationNs);
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

    public static final class LivelinessImpl extends Policies.Base implements Liveliness
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
            return Policies.dur(env, leaseNs);
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

    public static final class TimeBasedFilterImpl extends Policies.Base implements TimeBasedFilter
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
            return Policies.dur(env, separationNs);
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

    public static final class LifespanImpl extends Policies.Base implements Lifespan
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
            return Policies.dur(env, durationNs);
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
}
