package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-JVM registry, one per group name; for tests and the {@code local} transport. Every method is synchronized on the
 * registry (control path only: registry polls, view changes, rejoins).
 */
public final class LocalRegistry implements MembershipRegistry
{
    private static final ConcurrentHashMap<String, LocalRegistry> REGISTRIES = new ConcurrentHashMap<>();

    private final LinkedHashMap<Long, Member> members = new LinkedHashMap<>();
    private final Map<String, View> views = new LinkedHashMap<>();
    private final Map<Long, OutMark> outMarks = new LinkedHashMap<>();

    public static LocalRegistry forGroup(final String groupName)
    {
        return REGISTRIES.computeIfAbsent(groupName, n -> new LocalRegistry());
    }

    public static void forget(final String groupName)
    {
        REGISTRIES.remove(groupName);
    }

    @Override
    public synchronized void announce(final Member member)
    {
        members.put(member.memberId(), member);
    }

    @Override
    public synchronized void withdraw(final long memberId)
    {
        members.remove(memberId);
        outMarks.remove(memberId);
    }

    @Override
    public synchronized void markOut(final Member member, final boolean looking)
    {
        outMarks.put(member.memberId(), new OutMark(member, looking, System.currentTimeMillis()));
    }

    @Override
    public synchronized void clearOut(final long memberId)
    {
        outMarks.remove(memberId);
    }

    @Override
    public synchronized List<OutMark> outMarks()
    {
        return new ArrayList<>(outMarks.values());
    }

    @Override
    public synchronized Optional<View> latestInstalled()
    {
        View best = null;
        for (final var e : views.entrySet())
        {
            if (e.getKey().startsWith("v") && (best == null || e.getValue().viewId() > best.viewId()))
            {
                best = e.getValue();
            }
        }
        return Optional.ofNullable(best);
    }

    @Override
    public synchronized boolean publishFirst(final String key, final View view)
    {
        return views.putIfAbsent(key, view) == null;
    }

    @Override
    public synchronized List<Member> announced()
    {
        return new ArrayList<>(members.values());
    }

    @Override
    public synchronized void publish(final String key, final View view)
    {
        views.put(key, view);
    }

    /**
     * Forgets every published view and proposal (announcements stay): a network registry's replica does this when
     * its member starts looking for the group again, so that only views published from then on can take it back in.
     */
    public synchronized void forgetViews()
    {
        views.clear();
    }

    @Override
    public synchronized Optional<View> read(final String key)
    {
        return Optional.ofNullable(views.get(key));
    }

    @Override
    public synchronized Optional<View> latestContaining(final long memberId)
    {
        View best = null;
        for (final var e : views.entrySet())
        {
            final View v = e.getValue();
            if (e.getKey().startsWith("v") && v.rankOf(memberId) >= 0 && (best == null || v.viewId() > best.viewId()))
            {
                best = v;
            }
        }
        return Optional.ofNullable(best);
    }
}
