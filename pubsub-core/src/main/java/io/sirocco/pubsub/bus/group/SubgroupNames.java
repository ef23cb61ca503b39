package io.sirocco.pubsub.bus.group;

import java.util.List;

import io.sirocco.multicast.model.View;
import io.sirocco.pubsub.bus.EndpointRecord;

/**
 * How DDS entities map onto the domain group: a participant GUID's member id, a topic's subgroup names
 * ({@code t.<topic>.R} for RELIABLE, {@code .B} for BEST_EFFORT, other characters escaped as {@code %xxxx}), the
 * subgroups an endpoint's data path needs, and whether a view has a member in a subgroup. Stateless.
 */
final class SubgroupNames
{
    private SubgroupNames()
    {
    }

    /** The member id of a participant (or entity) GUID: its top 44 bits. */
    static long memberOf(final long participantGuid)
    {
        return participantGuid >>> 20;
    }

    static String subgroupName(final String topicName, final boolean reliable)
    {
        final StringBuilder name = new StringBuilder("t.");
        for (final char c : topicName.toCharArray())
        {
            if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '/' || c == ':' || c == '-')
            {
                name.append(c);
            }
            else
            {
                name.append(String.format("%%%04x", (int)c));
            }
        }
        return name.append(reliable ? ".R" : ".B").toString();
    }

    /** The subgroups an endpoint's data path needs (a best-effort reader also hears reliable writers). */
    static List<String> channelsOf(final EndpointRecord record)
    {
        final boolean reliable = record.reliabilityKind() == 1;
        if (record.isWriter())
        {
            return List.of(subgroupName(record.topicName(), reliable));
        }
        if (record.isReader())
        {
            return reliable ? List.of(subgroupName(record.topicName(), true)) :
                List.of(subgroupName(record.topicName(), true), subgroupName(record.topicName(), false));
        }
        return List.of();
    }

    static boolean inSubgroup(final View v, final String subgroup, final long member)
    {
        final int rank = v.rankOf(member);
        if (rank < 0)
        {
            return false;
        }
        for (final View.SubgroupInfo info : v.subgroups())
        {
            if (info.name().equals(subgroup))
            {
                for (final int r : info.memberRanks())
                {
                    if (r == rank)
                    {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }
}
