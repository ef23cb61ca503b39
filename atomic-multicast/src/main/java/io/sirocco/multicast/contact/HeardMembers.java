package io.sirocco.multicast.contact;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The members a {@link NetRegistry} heard from lately (hellos and beacons), with their group's identity and since
 * when they have had it, and the questions the registry asks of them: may this member form the group, which group
 * survives a merge, does a view run, where do greetings go.
 *
 * <p>Threads: a concurrent map, written by the endpoint's handler thread and the beacon thread, read by the
 * predicate thread (registry calls) and the ticker; each entry is an immutable record replaced atomically.
 */
final class HeardMembers
{
    private static final Logger LOG = LoggerFactory.getLogger(HeardMembers.class);

    /**
     * A member this one heard from (hello or beacon).
     *
     * @param group        its group's identity (null: outside any view, or an older member that sends none).
     * @param groupSinceNs since when it has been heard with this identity (the merge delay counts from here).
     */
    record Peer(long memberId, String contact, boolean inView, boolean mayForm, long heardNs, GroupIdentity group,
        long groupSinceNs)
    {
    }

    /**
     * At most this many members are remembered: beacons come from anyone on the link, and forged member ids once
     * filled a map that was never pruned (and each was greeted with a blocking connect).
     */
    static final int MAX_PEERS = 1024;
    /** A member not heard for this long is forgotten (beacons and hellos repeat every period while it runs). */
    static final long EXPIRY_NS = TimeUnit.SECONDS.toNanos(30);

    private final Map<Long, Peer> heard = new ConcurrentHashMap<>();

    /**
     * Records a peer, keeping the time since which its group identity is unchanged. A member not known yet while
     * {@link #MAX_PEERS} are known, none of them expired, is not recorded (the ones known keep working; the new one
     * is heard again at its next beacon or hello).
     *
     * @return false when the peer was not recorded.
     */
    boolean hear(final long id, final String hostPort, final boolean inView, final boolean peerMayForm,
        final GroupIdentity group)
    {
        return hear(id, hostPort, inView, peerMayForm, group, System.nanoTime());
    }

    /** {@link #hear(long, String, boolean, boolean, GroupIdentity)} at a given time (tests replay a sequence). */
    boolean hear(final long id, final String hostPort, final boolean inView, final boolean peerMayForm,
        final GroupIdentity group, final long now)
    {
        if (!heard.containsKey(id) && heard.size() >= MAX_PEERS)
        {
            heard.values().removeIf(p -> now - p.heardNs() > EXPIRY_NS);
            if (heard.size() >= MAX_PEERS)
            {
                return false;
            }
        }
        heard.compute(id, (k, old) -> new Peer(id, hostPort, inView, peerMayForm, now, group,
            old != null && Objects.equals(old.group(), group) ? old.groupSinceNs() : now));
        return true;
    }

    /** @return how many members are remembered. */
    int size()
    {
        return heard.size();
    }

    /** @return the peer, or null if never heard. */
    Peer get(final long id)
    {
        return heard.get(id);
    }

    /** @return whether {@code id} was heard within {@code freshNs} as a member of a group led by another member. */
    boolean inOtherGroup(final long id, final long ownLeaderId, final long nowNs, final long freshNs)
    {
        final Peer p = heard.get(id);
        return p != null && p.group() != null && nowNs - p.heardNs() <= freshNs && p.group().leaderId() != ownLeaderId;
    }

    /**
     * @return true when no member heard within {@code freshNs} runs a group, and none that may form one has a lower
     *         id than {@code selfId}.
     */
    boolean noneRunsOrOutranks(final String groupName, final long selfId, final long nowNs, final long freshNs)
    {
        for (final Peer p : heard.values())
        {
            if (nowNs - p.heardNs() > freshNs)
            {
                continue;
            }
            if (p.inView())
            {
                LOG.debug("group '{}': member {} runs the group; waiting to be added", groupName, p.memberId());
                return false;
            }
            if (p.mayForm() && p.memberId() < selfId)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The group to merge into: a member kept being heard, for {@code delayNs} while this member's own group has been
     * what it is now, as a member of a group that survives over it. "Kept being heard" means heard with that identity
     * at two moments {@code delayNs} apart, the later one within {@code freshNs} and both after {@code mineSinceNs}.
     * Counting from {@code mineSinceNs} is what keeps a dead member out: when the leader of a view is killed, the
     * survivors' next view is smaller and led by another member, and the dead leader's last greetings (sent just
     * before its death, still fresh) describe the old, larger group, which "survives" over the new one. Its entry is
     * not heard again after the survivors' view changed (a single late message cannot span the delay), so they no
     * longer leave their view to merge into a group that died with it.
     *
     * @param mineSinceNs since when this member's group has had {@code current}'s identity.
     * @return the member of the best such group; null if none.
     */
    Peer survivor(final View current, final long mineSinceNs, final long nowNs, final long freshNs,
        final long delayNs)
    {
        final GroupIdentity mine = GroupIdentity.of(current);
        Peer best = null;
        for (final Peer p : heard.values())
        {
            final long heardSinceNs = p.groupSinceNs() - mineSinceNs > 0 ? p.groupSinceNs() : mineSinceNs;
            if (p.group() == null || !p.inView() || nowNs - p.heardNs() > freshNs
                || p.heardNs() - heardSinceNs < delayNs || current.rankOf(p.memberId()) >= 0
                || !p.group().survivesOver(mine))
            {
                continue;
            }
            if (best == null || p.group().survivesOver(best.group()))
            {
                best = p;
            }
        }
        return best;
    }

    /** @return whether another member of {@code view} greeted, since {@code sinceNs}, as a member of exactly it. */
    boolean runs(final View view, final long selfId, final long sinceNs)
    {
        final GroupIdentity identity = GroupIdentity.of(view);
        for (final Peer p : heard.values())
        {
            if (p.memberId() != selfId && view.rankOf(p.memberId()) >= 0 && p.heardNs() - sinceNs >= 0
                && p.inView() && identity.equals(p.group()))
            {
                return true;
            }
        }
        return false;
    }

    /** Adds the registry node of every peer heard (with {@code onlyGroup}, only those of the group led by
     * {@code leaderId}). */
    void addNodes(final Set<Integer> nodes, final boolean onlyGroup, final long leaderId)
    {
        final long now = System.nanoTime();
        for (final Peer p : heard.values())
        {
            // Only members heard lately: an expired one (gone, or a forged beacon's id) is not greeted.
            if (now - p.heardNs() <= EXPIRY_NS && (!onlyGroup || (p.group() != null && p.group().leaderId() == leaderId)))
            {
                nodes.add(RegistryEndpoint.nodeOf(p.contact()));
            }
        }
    }
}
