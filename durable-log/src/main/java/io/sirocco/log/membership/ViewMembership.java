package io.sirocco.log.membership;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.model.View;
import io.sirocco.transport.agent.Agents;

/**
 * Feeds the log's {@link Membership} from the atomic-multicast view: a log node is a member of the log's membership
 * exactly while its multicast member is in the installed view and has said which log node it runs
 * ({@link #learn}). A view change that removes a member is what makes the log leave it, and so what starts the
 * failover of its zones; nothing is fed by hand.
 *
 * <p>Threads: {@link #onViewInstalled} runs on the group's predicate thread, which must not wait, and
 * {@link #learn} on whichever thread received the member's announcement; both only queue an event on one event
 * thread ({@code sirocco-log-membership-<name>}), which applies them in the order they were called: the view and the
 * announced nodes are state of that thread, so a view and an announcement are judged against each other in call
 * order. The log's listeners (re-replication, failover) therefore run on that thread, never on the predicate
 * thread. {@code viewMembers} (volatile) and {@code nodes} (a concurrent map) are written only by the event thread
 * and may be read by any thread.
 */
public final class ViewMembership implements MembershipListener, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ViewMembership.class);

    private final Membership membership;
    private final String name;
    private final ExecutorService events;
    /** Multicast member id to the log node id it announced. */
    private final Map<Long, Integer> nodes = new ConcurrentHashMap<>();
    private volatile Set<Long> viewMembers = Set.of();

    /**
     * @param membership the log membership to feed.
     * @param name       names the event thread (e.g. the group and member).
     */
    public ViewMembership(final Membership membership, final String name)
    {
        this.membership = membership;
        this.name = name;
        this.events = Executors.newSingleThreadExecutor(Agents.threadFactory("log-membership-" + name));
    }

    public Membership membership()
    {
        return membership;
    }

    /** The log node that multicast member {@code memberId} runs (announced by that member), or null. */
    public Integer nodeOf(final long memberId)
    {
        return nodes.get(memberId);
    }

    /** Members of the installed view, by multicast member id. */
    public Set<Long> viewMembers()
    {
        return viewMembers;
    }

    /**
     * Multicast member {@code memberId} runs log node {@code nodeId}; it joins the log membership now if it is in the
     * installed view, else when a view brings it in. Repeated announcements are harmless.
     */
    public void learn(final long memberId, final int nodeId)
    {
        queue(() ->
        {
            final Integer previous = nodes.put(memberId, nodeId);
            if (previous != null && previous != nodeId)
            {
                LOG.warn("durable-log {}: multicast member {} now announces log node {} (was {})", name, memberId,
                    nodeId, previous);
            }
            if (viewMembers.contains(memberId))
            {
                membership.join(nodeId);
            }
        });
    }

    @Override
    public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
    {
        final Set<Long> ids = new HashSet<>();
        for (final Member member : view.members())
        {
            ids.add(member.memberId());
        }
        final Set<Long> members = Set.copyOf(ids);
        final List<Long> gone = List.copyOf(left);
        final List<Long> came = List.copyOf(joined);
        queue(() ->
        {
            viewMembers = members;
            apply(view.viewId(), came, gone);
        });
    }

    private void apply(final long viewId, final List<Long> joined, final List<Long> left)
    {
        for (final long member : left)
        {
            final Integer node = nodes.get(member);
            if (node != null)
            {
                LOG.info("durable-log {}: view {} removed member {} (log node {})", name, viewId, member, node);
                membership.leave(node);
            }
        }
        for (final long member : joined)
        {
            final Integer node = nodes.get(member);
            if (node != null && viewMembers.contains(member))
            {
                membership.join(node);
            }
        }
    }

    @Override
    public void onExcluded(final String reason)
    {
        LOG.warn("durable-log {}: this member left the multicast group ({}); the log keeps its last membership until "
            + "the group takes it back", name, reason);
    }

    private void queue(final Runnable event)
    {
        try
        {
            events.execute(() ->
            {
                try
                {
                    event.run();
                }
                catch (final RuntimeException ex)
                {
                    LOG.error("durable-log {}: membership event failed", name, ex);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("durable-log {}: membership event after close ignored", name);
        }
    }

    /** Runs the events queued so far, then stops (waits up to 5 s). */
    @Override
    public void close()
    {
        events.shutdown();
        try
        {
            events.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
