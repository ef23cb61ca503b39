package io.sirocco.multicast;

import io.sirocco.multicast.view.MembershipRegistry;

import java.util.List;
import java.util.Optional;

/**
 * A test registry that hands every call to a delegate (the default methods too), for tests that distort one call
 * ({@link #read}) to play a lagging or withheld network replica over an in-JVM registry. Threading as the delegate's.
 */
abstract class ForwardingRegistry implements MembershipRegistry
{
    protected final MembershipRegistry delegate;

    ForwardingRegistry(final MembershipRegistry delegate)
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
    public String contactAddress()
    {
        return delegate.contactAddress();
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
