package io.sirocco.pubsub.qos.xml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.qos.PolicyFactoryImpl;

import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.ReaderDataLifecycle;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;

/**
 * Reads one policy element of an OMG DDS-XML QoS ({@code <reliability><kind>RELIABLE_RELIABILITY_QOS</kind>...}) into
 * the PSM's policy object. Enumerators are written as in DDS-XML ({@code KEEP_LAST_HISTORY_QOS}) or bare
 * ({@code KEEP_LAST}); durations as {@code <sec>}/{@code <nanosec>} (either may be {@code DURATION_INFINITY},
 * {@code DURATION_INFINITE_SEC} or {@code DURATION_INFINITE_NSEC}); {@code LENGTH_UNLIMITED} is -1.
 * Members a policy element does not name keep their default values.
 *
 * <p>Concurrency: stateless but for the environment; any thread.
 */
final class PolicyReader
{
    private final ServiceEnvironment env;
    private final PolicyFactory policies;

    PolicyReader(final ServiceEnvironment env)
    {
        this.env = env;
        this.policies = env.getSPI().getPolicyFactory();
    }

    /**
     * The policy an element describes.
     *
     * @throws QosXmlException naming the file, line and element of an unknown policy, member or value.
     */
    QosPolicy read(final XmlNode node)
    {
        return switch (node.name())
        {
            case "reliability" -> reliability(node);
            case "durability" -> policies.Durability().withKind(kind(node, Durability.Kind.class));
            case "history" -> history(node);
            case "deadline" -> policies.Deadline().withPeriod(duration(node, "period"));
            case "latency_budget" -> policies.LatencyBudget().withDuration(duration(node, "duration"));
            case "liveliness" -> liveliness(node);
            case "ownership" -> policies.Ownership().withKind(kind(node, Ownership.Kind.class));
            case "ownership_strength" -> policies.OwnershipStrength().withValue(integer(node, "value", 0));
            case "lifespan" -> policies.Lifespan().withDuration(duration(node, "duration"));
            case "time_based_filter" ->
                policies.TimeBasedFilter().withMinimumSeparation(duration(node, "minimum_separation"));
            case "destination_order" -> policies.DestinationOrder().withKind(kind(node, DestinationOrder.Kind.class));
            case "resource_limits" -> resourceLimits(node);
            case "transport_priority" -> policies.TransportPriority().withValue(integer(node, "value", 0));
            case "partition" -> policies.Partition().withName(names(node));
            case "writer_data_lifecycle" -> policies.WriterDataLifecycle().withAutDisposeUnregisteredInstances(
                bool(node, "autodispose_unregistered_instances", true));
            case "reader_data_lifecycle" -> readerDataLifecycle(node);
            case "entity_factory" -> policies.EntityFactory().withAutoEnableCreatedEntities(
                bool(node, "autoenable_created_entities", true));
            case "presentation" -> presentation(node);
            default -> throw node.error("unknown or unsupported QoS policy (supported: reliability, " +
                "durability, history, deadline, latency_budget, liveliness, ownership, ownership_strength, " +
                "lifespan, time_based_filter, destination_order, resource_limits, transport_priority, partition, " +
                "writer_data_lifecycle, reader_data_lifecycle, entity_factory, presentation)");
        };
    }

    private Reliability reliability(final XmlNode node)
    {
        Reliability r = policies.Reliability();
        if (node.child("kind") != null)
        {
            r = r.withKind(kind(node, Reliability.Kind.class));
        }
        return node.child("max_blocking_time") == null ? r : r.withMaxBlockingTime(duration(node, "max_blocking_time"));
    }

    private History history(final XmlNode node)
    {
        History h = policies.History();
        if (node.child("kind") != null)
        {
            h = h.withKind(kind(node, History.Kind.class));
        }
        return node.child("depth") == null ? h : h.withDepth(integer(node, "depth", 1));
    }

    private Liveliness liveliness(final XmlNode node)
    {
        Liveliness l = policies.Liveliness();
        if (node.child("kind") != null)
        {
            l = l.withKind(kind(node, Liveliness.Kind.class));
        }
        return node.child("lease_duration") == null ? l : l.withLeaseDuration(duration(node, "lease_duration"));
    }

    private ResourceLimits resourceLimits(final XmlNode node)
    {
        final ResourceLimits defaults = policies.ResourceLimits();
        return defaults.withMaxSamples(integer(node, "max_samples", defaults.getMaxSamples()))
            .withMaxInstances(integer(node, "max_instances", defaults.getMaxInstances()))
            .withMaxSamplesPerInstance(integer(node, "max_samples_per_instance",
                defaults.getMaxSamplesPerInstance()));
    }

    private ReaderDataLifecycle readerDataLifecycle(final XmlNode node)
    {
        ReaderDataLifecycle l = policies.ReaderDataLifecycle();
        if (node.child("autopurge_nowriter_samples_delay") != null)
        {
            l = l.withAutoPurgeNoWriterSamplesDelay(duration(node, "autopurge_nowriter_samples_delay"));
        }
        if (node.child("autopurge_disposed_samples_delay") != null)
        {
            l = l.withAutoPurgeDisposedSamplesDelay(duration(node, "autopurge_disposed_samples_delay"));
        }
        return l;
    }

    private Presentation presentation(final XmlNode node)
    {
        Presentation p = new PolicyFactoryImpl(env).Presentation();
        final XmlNode scope = node.child("access_scope");
        if (scope != null)
        {
            p = p.withAccessScope(enumerator(scope, Presentation.AccessScopeKind.class));
        }
        return p.withCoherentAccess(bool(node, "coherent_access", p.isCoherentAccess()))
            .withOrderedAccess(bool(node, "ordered_access", p.isOrderedAccess()));
    }

    private List<String> names(final XmlNode node)
    {
        final XmlNode name = node.child("name");
        if (name == null)
        {
            return List.of();
        }
        final List<String> names = new ArrayList<>();
        for (final XmlNode element : name.children())
        {
            if (!element.name().equals("element"))
            {
                throw element.error("a partition name holds <element> entries only");
            }
            names.add(element.text());
        }
        return names;
    }

    private <E extends Enum<E>> E kind(final XmlNode node, final Class<E> kinds)
    {
        final XmlNode kind = node.child("kind");
        if (kind == null)
        {
            throw node.error("a <kind> is required");
        }
        return enumerator(kind, kinds);
    }

    /** {@code KEEP_LAST_HISTORY_QOS} or {@code KEEP_LAST}: the longest enumerator the text starts with. */
    private static <E extends Enum<E>> E enumerator(final XmlNode node, final Class<E> kinds)
    {
        final String text = node.text();
        E best = null;
        for (final E e : kinds.getEnumConstants())
        {
            final boolean fits = text.equals(e.name()) || text.startsWith(e.name() + "_") && text.endsWith("_QOS");
            if (fits && (best == null || e.name().length() > best.name().length()))
            {
                best = e;
            }
        }
        if (best == null)
        {
            throw node.error("unknown value '" + text + "' (expected one of " +
                Arrays.toString(kinds.getEnumConstants()) + ", optionally with the DDS-XML suffix, e.g. '_QOS')");
        }
        return best;
    }

    private Duration duration(final XmlNode node, final String member)
    {
        final XmlNode d = node.child(member);
        if (d == null)
        {
            throw node.error("a <" + member + "> is required");
        }
        final XmlNode sec = d.child("sec");
        final XmlNode nanosec = d.child("nanosec");
        if (sec == null && nanosec == null)
        {
            throw d.error("a duration needs <sec> and/or <nanosec>");
        }
        if (infinite(sec) || infinite(nanosec))
        {
            return env.getSPI().infiniteDuration();
        }
        final long s = sec == null ? 0 : number(sec);
        final long ns = nanosec == null ? 0 : number(nanosec);
        return env.getSPI().newDuration(TimeUnit.SECONDS.toNanos(s) + ns, TimeUnit.NANOSECONDS);
    }

    private static boolean infinite(final XmlNode node)
    {
        return node != null && node.text().startsWith("DURATION_INFINIT");
    }

    private static int integer(final XmlNode node, final String member, final int absent)
    {
        final XmlNode value = node.child(member);
        if (value == null)
        {
            return absent;
        }
        if (value.text().equals("LENGTH_UNLIMITED"))
        {
            return -1;
        }
        final long n = number(value);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE)
        {
            throw value.error("'" + value.text() + "' does not fit a 32-bit integer");
        }
        return (int)n;
    }

    private static long number(final XmlNode value)
    {
        try
        {
            return Long.parseLong(value.text());
        }
        catch (final NumberFormatException ex)
        {
            throw value.error("'" + value.text() + "' is not an integer");
        }
    }

    private static boolean bool(final XmlNode node, final String member, final boolean absent)
    {
        final XmlNode value = node.child(member);
        if (value == null)
        {
            return absent;
        }
        return switch (value.text().toLowerCase(java.util.Locale.ROOT))
        {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw value.error("'" + value.text() + "' is not a boolean (true or false)");
        };
    }
}
