package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import java.util.List;
import java.util.Optional;

/**
 * A registry that forwards every call to another one, for tests that override one call to make a member's registry
 * lag, withhold or race. Every method of {@link MembershipRegistry} is forwarded, the default ones included: a
 * wrapper that left out, say, the out marks would silently turn off the re-forming of a group ({@link Refounder}).
 */
public class ForwardingRegistry implements MembershipRegistry
{
    protected final MembershipRegistry delegate;

    public ForwardingRegistry(final MembershipRegistry delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public void announce(final Member member)
    {
        delegate.announce(member);
    }

    @Override
    public void withdraw(final long memberId)
    {
        delegate.withdraw(memberId);
    }

    @Override
    public List<Member> announced()
    {
        return delegate.announced();
    }

    @Override
    public void publish(final String key, final View view)
    {
        delegate.publish(key, view);
    }

    @Override
    public Optional<View> read(final String key)
    {
        return delegate.read(key);
    }

    @Override
    public Optional<View> latestContaining(final long memberId)
    {
        return delegate.latestContaining(memberId);
    }

    @Override
    public boolean formsGroup()
    {
        return delegate.formsGroup();
    }

    @Override
    public Optional<String> survivingGroup(final View current)
    {
        return delegate.survivingGroup(current);
    }

    @Override
    public void rediscover()
    {
        delegate.rediscover();
    }

    @Override
    public boolean runsNow(final View view)
    {
        return delegate.runsNow(view);
    }

    @Override
    public void markOut(final Member member, final boolean looking)
    {
        delegate.markOut(member, looking);
    }

    @Override
    public void clearOut(final long memberId)
    {
        delegate.clearOut(memberId);
    }

    @Override
    public List<OutMark> outMarks()
    {
        return delegate.outMarks();
    }

    @Override
    public Optional<View> latestInstalled()
    {
        return delegate.latestInstalled();
    }

    @Override
    public boolean publishFirst(final String key, final View view)
    {
        return delegate.publishFirst(key, view);
    }

    @Override
    public String contactAddress()
    {
        return delegate.contactAddress();
    }
}
