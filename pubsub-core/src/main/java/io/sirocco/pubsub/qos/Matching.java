package io.sirocco.pubsub.qos;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.LatencyBudget;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.Reliability;

/**
 * Request/offered matching (DDS 1.4 §2.2.3): which requested policies of a reader the writer's offer fails to meet,
 * and the partition rule. Both ends evaluate the same function, so they agree on whether they are matched.
 */
public final class Matching
{
    private Matching()
    {
    }

    /** The policies whose offer (writer) is weaker than the request (reader); empty when compatible. */
    public static List<Class<? extends QosPolicy>> incompatible(final EndpointRecord w, final EndpointRecord r)
    {
        final List<Class<? extends QosPolicy>> failed = new ArrayList<>(2);
        if (w.reliabilityKind() < r.reliabilityKind())
        {
            failed.add(Reliability.class);
        }
        if (w.durabilityKind() < r.durabilityKind())
        {
            failed.add(Durability.class);
        }
        if (w.deadlineNs() > r.deadlineNs())
        {
            failed.add(Deadline.class);
        }
        if (w.latencyBudgetNs() > r.latencyBudgetNs())
        {
            failed.add(LatencyBudget.class);
        }
        if (w.livelinessKind() < r.livelinessKind() || w.leaseNs() > r.leaseNs())
        {
            failed.add(Liveliness.class);
        }
        if (w.ownershipKind() != r.ownershipKind())
        {
            failed.add(Ownership.class);
        }
        if (w.destinationOrderKind() < r.destinationOrderKind())
        {
            failed.add(DestinationOrder.class);
        }
        if (w.presentationScope() < r.presentationScope() || (!w.coherentAccess() && r.coherentAccess()) ||
            (!w.orderedAccess() && r.orderedAccess()))
        {
            failed.add(Presentation.class);
        }
        return failed;
    }

    /** Same topic and type name: the precondition for any comparison of QoS. */
    public static boolean sameTopic(final EndpointRecord w, final EndpointRecord r)
    {
        return w.topicName().equals(r.topicName()) && w.typeName().equals(r.typeName());
    }

    /**
     * Partitions match when some name of one side matches some name of the other; an empty list is the default
     * partition "". Names may hold the fnmatch wildcards {@code * ? [...]} on one side (two patterns never match).
     */
    public static boolean partitionsMatch(final List<String> a, final List<String> b)
    {
        final List<String> left = a.isEmpty() ? List.of("") : a;
        final List<String> right = b.isEmpty() ? List.of("") : b;
        for (final String x : left)
        {
            for (final String y : right)
            {
                if (nameMatches(x, y))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean nameMatches(final String x, final String y)
    {
        final boolean xWild = isPattern(x);
        final boolean yWild = isPattern(y);
        if (xWild && yWild)
        {
            return x.equals(y);
        }
        if (xWild)
        {
            return glob(x).matcher(y).matches();
        }
        if (yWild)
        {
            return glob(y).matcher(x).matches();
        }
        return x.equals(y);
    }

    private static boolean isPattern(final String name)
    {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }

    private static Pattern glob(final String pattern)
    {
        final StringBuilder regex = new StringBuilder();
        for (final char c : pattern.toCharArray())
        {
            switch (c)
            {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '[', ']' -> regex.append(c);
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
