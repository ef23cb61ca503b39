package io.sirocco.multicast;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link MembershipListener}s of one {@link Group} and the upcalls to them: an installed view with the members it
 * added and removed, an exclusion, a rejoin. A listener that throws is logged and the others still run.
 *
 * <p>Threads: listeners are added from any thread (copy-on-write list); the upcalls run on the group's predicate
 * thread.
 */
final class MembershipNotices
{
    private static final Logger LOG = LoggerFactory.getLogger(MembershipNotices.class);

    private final long memberId;
    private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();

    MembershipNotices(final long memberId)
    {
        this.memberId = memberId;
    }

    void add(final MembershipListener listener)
    {
        listeners.add(listener);
    }

    /** {@code next} is installed after {@code old} (null: this member's first view, or its first after a rejoin). */
    void installed(final View old, final View next)
    {
        final List<Long> joined = new ArrayList<>();
        final List<Long> left = new ArrayList<>();
        for (final Member m : next.members())
        {
            if (old == null || old.rankOf(m.memberId()) < 0)
            {
                joined.add(m.memberId());
            }
        }
        if (old != null)
        {
            for (final Member m : old.members())
            {
                if (next.rankOf(m.memberId()) < 0)
                {
                    left.add(m.memberId());
                }
            }
        }
        for (final MembershipListener l : listeners)
        {
            try
            {
                l.onViewInstalled(next, joined, left);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("membership listener failed on {}", next, ex);
            }
        }
    }

    void excluded(final String reason)
    {
        for (final MembershipListener l : listeners)
        {
            try
            {
                l.onExcluded(reason);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("membership listener failed on the exclusion of member {}", memberId, ex);
            }
        }
    }

    void rejoined(final View next)
    {
        for (final MembershipListener l : listeners)
        {
            try
            {
                l.onRejoined(next);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("membership listener failed on the rejoin of member {}", memberId, ex);
            }
        }
    }
}
