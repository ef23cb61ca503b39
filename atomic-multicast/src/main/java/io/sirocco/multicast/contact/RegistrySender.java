package io.sirocco.multicast.contact;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.view.LocalRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a {@link NetRegistry}'s messages go: registry writes to the members of the latest view (and of a published
 * view), greetings to the contacts (the static peers and every member heard), or, while this member rediscovers
 * towards a merge survivor, only to the members heard in that group. Messages leave through the
 * {@link RegistryOutbox}; a greeting is built when it is sent, so it tells the receiver what this member is by then.
 *
 * <p>Threads: called by the predicate thread (registry calls), the handler thread (relays, replies) and the ticker;
 * the replica is synchronized, the merge target is two volatiles written by the predicate thread (rediscovery) and
 * the ticker (cleared once in a view).
 */
final class RegistrySender
{
    private static final Logger LOG = LoggerFactory.getLogger(RegistrySender.class);

    private final String groupName;
    private final long memberId;
    private final String contact;
    private final boolean mayForm;
    private final LocalRegistry replica;
    private final HeardMembers heard;
    private final RegistryEndpoint endpoint;
    private final RegistryOutbox outbox;
    /** While rediscovering towards a survivor: its leader id (0: none) and until when announcements go only there. */
    private volatile long mergeTarget;
    private volatile long mergeTargetUntilNs;

    RegistrySender(final String groupName, final long memberId, final boolean mayForm, final LocalRegistry replica,
        final HeardMembers heard, final RegistryEndpoint endpoint, final RegistryOutbox outbox)
    {
        this.groupName = groupName;
        this.memberId = memberId;
        this.contact = endpoint.contact();
        this.mayForm = mayForm;
        this.replica = replica;
        this.heard = heard;
        this.endpoint = endpoint;
        this.outbox = outbox;
    }

    /** Greetings go only to the group led by {@code leaderId} until {@code untilNs} (0: to every contact). */
    void mergeTarget(final long leaderId, final long untilNs)
    {
        mergeTargetUntilNs = untilNs;
        mergeTarget = leaderId;
    }

    /** @return whether greetings go only to a merge survivor now. */
    boolean mergeTargetActive()
    {
        return mergeTarget != 0 && System.nanoTime() - mergeTargetUntilNs < 0;
    }

    boolean inView()
    {
        return replica.latestContaining(memberId).isPresent();
    }

    /** @return the identity of the group of the latest view containing this member, or null outside any. */
    GroupIdentity ownGroup()
    {
        return replica.latestContaining(memberId).map(GroupIdentity::of).orElse(null);
    }

    String helloBody()
    {
        final GroupIdentity group = ownGroup();
        return group == null ? "" : group.encode();
    }

    int flags(final int extra)
    {
        return extra | (inView() ? RegistryMessage.IN_VIEW : 0) | (mayForm ? RegistryMessage.MAY_FORM : 0);
    }

    /** Members of the latest view containing this member, plus those of {@code also}, minus this member. */
    Set<Member> viewMembers(final View also)
    {
        final Set<Member> to = new LinkedHashSet<>();
        replica.latestContaining(memberId).ifPresent(v -> to.addAll(v.members()));
        if (also != null)
        {
            to.addAll(also.members());
        }
        to.removeIf(m -> m.memberId() == memberId);
        return to;
    }

    /** A hello in answer to one, to the node it came from. */
    void replyHello(final int node)
    {
        outbox.submit(RegistryMessage.of(RegistryMessage.HELLO, flags(0), memberId, groupName, contact, helloBody()),
            node);
    }

    void toMembers(final byte kind, final int flags, final String body, final Set<Member> to)
    {
        if (to.isEmpty())
        {
            return;
        }
        final RegistryMessage m = RegistryMessage.of(kind, flags(flags), memberId, groupName, contact, body);
        for (final Member member : to)
        {
            if (member.contact().isEmpty())
            {
                LOG.warn("group '{}': member {} has no registry address; registry update not sent to it", groupName,
                    member.memberId());
                continue;
            }
            final int node = RegistryEndpoint.nodeOf(member.contact());
            endpoint.learn(node, member.contact());
            outbox.submit(m, node);
        }
    }

    /**
     * To the static peers and every member heard; while rediscovering towards a merge survivor, only to the members
     * heard in that group (the old group's members would add this member back).
     */
    void toContacts(final byte kind, final int flags, final String body)
    {
        final boolean towardsSurvivor = mergeTargetActive();
        final Set<Integer> nodes = new LinkedHashSet<>(towardsSurvivor ? List.of() : endpoint.staticPeerNodes());
        heard.addNodes(nodes, towardsSurvivor, mergeTarget);
        final long now = System.nanoTime();
        for (final int node : nodes)
        {
            if (outbox.unreachable(node, now))
            {
                continue;
            }
            // Built when sent, not now: a greeting that waited in the outbox must not claim this member is outside
            // any view when it is in one by then (the receiver would add it to its own group from that).
            outbox.submit(() ->
            {
                if (outbox.unreachable(node, System.nanoTime()) || (kind == RegistryMessage.ANNOUNCE && inView()))
                {
                    // Also checked here: greetings queued before the first failure would each wait for the timeout.
                    return null;
                }
                return RegistryMessage.of(kind, flags(flags), memberId, groupName, contact,
                    kind == RegistryMessage.HELLO ? helloBody() : body);
            }, node);
        }
    }
}
