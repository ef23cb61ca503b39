package io.sirocco.multicast.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * One view of the group: its id, its members in rank order, and the subgroups derived from what they registered.
 * Immutable. Rank = position in {@link #members()}; the leader is the lowest-ranked live member.
 *
 * <p>The subgroup layout is a deterministic function of the view: subgroups are sorted by name; a subgroup's members
 * are the members that registered it, in rank order; its senders are those among them with a sending role; its
 * spec is the one registered by its lowest-ranked member. Every member therefore computes the same layout.
 */
public final class View
{
    private final long viewId;
    private final List<Member> members;
    private final List<SubgroupInfo> subgroups;

    /**
     * A subgroup in this view.
     *
     * @param name        name.
     * @param spec        shape (from its lowest-ranked registrant).
     * @param memberRanks view ranks of its members, ascending.
     * @param senderRanks view ranks of its senders, ascending; a sender's position here is its sender rank.
     */
    public record SubgroupInfo(String name, SubgroupSpec spec, int[] memberRanks, int[] senderRanks)
    {
    }

    public View(final long viewId, final List<Member> members)
    {
        this.viewId = viewId;
        this.members = List.copyOf(members);
        final TreeMap<String, List<int[]>> byName = new TreeMap<>();
        final TreeMap<String, SubgroupSpec> specs = new TreeMap<>();
        for (int rank = 0; rank < this.members.size(); rank++)
        {
            for (final Member.Registration r : this.members.get(rank).registrations())
            {
                byName.computeIfAbsent(r.spec().name(), n -> new ArrayList<>())
                    .add(new int[] {rank, r.role().sends() ? 1 : 0});
                specs.putIfAbsent(r.spec().name(), r.spec());
            }
        }
        final List<SubgroupInfo> list = new ArrayList<>();
        for (final var e : byName.entrySet())
        {
            final int[] all = e.getValue().stream().mapToInt(a -> a[0]).toArray();
            final int[] send = e.getValue().stream().filter(a -> a[1] == 1).mapToInt(a -> a[0]).toArray();
            list.add(new SubgroupInfo(e.getKey(), specs.get(e.getKey()), all, send));
        }
        this.subgroups = Collections.unmodifiableList(list);
    }

    public long viewId()
    {
        return viewId;
    }

    public List<Member> members()
    {
        return members;
    }

    public List<SubgroupInfo> subgroups()
    {
        return subgroups;
    }

    /** @return the rank of a member id, or -1. */
    public int rankOf(final long memberId)
    {
        for (int i = 0; i < members.size(); i++)
        {
            if (members.get(i).memberId() == memberId)
            {
                return i;
            }
        }
        return -1;
    }

    /** Text form: first line the view id, then one {@link Member#encode()} line per member in rank order. */
    public String encode()
    {
        final StringBuilder sb = new StringBuilder().append(viewId).append('\n');
        for (final Member m : members)
        {
            sb.append(m.encode()).append('\n');
        }
        return sb.toString();
    }

    public static View decode(final String text)
    {
        final String[] lines = text.strip().split("\n");
        final List<Member> ms = new ArrayList<>();
        for (int i = 1; i < lines.length; i++)
        {
            if (!lines[i].isBlank())
            {
                ms.add(Member.decode(lines[i]));
            }
        }
        return new View(Long.parseLong(lines[0].strip()), ms);
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("View{id=").append(viewId).append(", members=[");
        for (int i = 0; i < members.size(); i++)
        {
            sb.append(i == 0 ? "" : ", ").append(members.get(i).memberId());
        }
        return sb.append("], subgroups=").append(subgroups.stream().map(SubgroupInfo::name).toList()).append('}')
            .toString();
    }
}
