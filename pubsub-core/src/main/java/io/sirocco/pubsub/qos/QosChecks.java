package io.sirocco.pubsub.qos;

import java.util.List;
import java.util.Map;

import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.EntityQos;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.policy.TimeBasedFilter;

/**
 * Consistency checks (InconsistentPolicyException, DDS 1.4 §2.2.3) and the honest list of policies whose
 * non-default values Sirocco does not enforce yet (UnsupportedOperationException naming the policy), run when an
 * entity is created or its QoS set.
 */
public final class QosChecks
{
    /**
     * The policies of a DataWriter or DataReader that the DDS 1.4 QoS table (§2.2.3) marks not changeable; a QoS
     * without one of them (DurabilityService on a reader) skips it.
     */
    private static final List<Class<? extends QosPolicy>> ENDPOINT_IMMUTABLE = List.of(Reliability.class,
        Durability.class, DurabilityService.class, History.class, ResourceLimits.class, Ownership.class,
        Liveliness.class, DestinationOrder.class);

    private QosChecks()
    {
    }

    /**
     * setQos on a DataWriter or DataReader ({@code kind}): ImmutablePolicyException naming the first policy of
     * {@link #ENDPOINT_IMMUTABLE} whose value differs between {@code current} and {@code next}.
     */
    public static void endpointUnchanged(final ServiceEnvironment env, final String entity, final String kind,
        final EntityQos<?> current, final EntityQos<?> next)
    {
        // Map.get: the typed EntityQos.get cannot take a policy class of another family.
        final Map<?, ?> from = current;
        final Map<?, ?> to = next;
        for (final Class<? extends QosPolicy> immutable : ENDPOINT_IMMUTABLE)
        {
            final Object before = from.get(immutable);
            if (before != null && !before.equals(to.get(immutable)))
            {
                throw DdsExceptions.immutable(env, entity + ": " + immutable.getSimpleName() +
                    " cannot change after the " + kind + " is enabled");
            }
        }
    }

    public static void historyAndLimits(final ServiceEnvironment env, final String entity, final History history,
        final ResourceLimits limits)
    {
        if (history.getKind() == History.Kind.KEEP_LAST && history.getDepth() <= 0)
        {
            throw DdsExceptions.inconsistent(env, entity + ": History KEEP_LAST depth must be positive, got " +
                history.getDepth());
        }
        final int maxSamples = limits.getMaxSamples();
        final int maxPerInstance = limits.getMaxSamplesPerInstance();
        if (maxSamples != ResourceLimits.LENGTH_UNLIMITED && maxPerInstance != ResourceLimits.LENGTH_UNLIMITED &&
            maxPerInstance > maxSamples)
        {
            throw DdsExceptions.inconsistent(env, entity + ": ResourceLimits max_samples_per_instance (" +
                maxPerInstance + ") > max_samples (" + maxSamples + ")");
        }
        if (history.getKind() == History.Kind.KEEP_LAST && maxPerInstance != ResourceLimits.LENGTH_UNLIMITED &&
            history.getDepth() > maxPerInstance)
        {
            throw DdsExceptions.inconsistent(env, entity + ": History KEEP_LAST depth (" + history.getDepth() +
                ") > ResourceLimits max_samples_per_instance (" + maxPerInstance + ")");
        }
    }

    /** DDS 1.4 §2.2.3.12: a reader's deadline period may not be shorter than its time-based filter's separation. */
    public static void timeBasedFilter(final ServiceEnvironment env, final String entity, final Deadline deadline,
        final TimeBasedFilter filter)
    {
        final long separationNs = DurationImpl.toNanos(filter.getMinimumSeparation());
        if (DurationImpl.toNanos(deadline.getPeriod()) < separationNs)
        {
            throw DdsExceptions.inconsistent(env, entity + ": Deadline period (" + deadline.getPeriod() +
                ") is shorter than TimeBasedFilter minimum_separation (" + filter.getMinimumSeparation() + ")");
        }
    }

    /** setQos on a Publisher or Subscriber: PRESENTATION is not changeable (DDS 1.4 §2.2.3, its QoS table). */
    public static void presentationUnchanged(final ServiceEnvironment env, final String entity,
        final Presentation current, final Presentation next)
    {
        if (!current.equals(next))
        {
            throw DdsExceptions.immutable(env, entity + ": Presentation cannot change after the entity is enabled");
        }
    }

    /**
     * What of PRESENTATION (DDS 1.4 §2.2.3.6) is built: every scope with coherent_access (at TOPIC and GROUP scope a
     * coherent set reaches a reader all or nothing), INSTANCE scope with ordered_access (each instance's changes reach
     * every reader in the topic subgroup's one order). Ordered access over TOPIC or GROUP scope is not:
     * UnsupportedOperationException naming it.
     */
    public static void presentation(final String entity, final Presentation presentation)
    {
        if (presentation != null && presentation.getAccessScope() != Presentation.AccessScopeKind.INSTANCE &&
            presentation.isOrderedAccess())
        {
            throw new UnsupportedOperationException(entity + ": Presentation " + presentation.getAccessScope() +
                " scope with ordered_access (access in write order across instances or topics) is not implemented " +
                "yet; coherent_access at every scope, and ordered_access at INSTANCE scope, are");
        }
    }
}
