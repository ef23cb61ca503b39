package io.sirocco.pubsub.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import org.omg.dds.core.Condition;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.WaitSet;

/**
 * A WaitSet. Waiters block on one lock/condition pair; any attached condition whose trigger may have become true
 * calls {@link #wakeUp()}, which bumps a generation under the lock, so a wake-up between a waiter's check and its
 * await is never lost. Trigger values are always re-read from the conditions themselves.
 */
public final class WaitSetImpl extends WaitSet implements WaitSetWaker
{
    private final ServiceEnvironment environment;
    private final CopyOnWriteArrayList<Condition> conditions = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    /** The lock's condition (java.util.concurrent's; the DDS {@link Condition} is what a WaitSet waits for). */
    private final java.util.concurrent.locks.Condition changed = lock.newCondition();
    private long generation;

    public WaitSetImpl(final ServiceEnvironment environment)
    {
        this.environment = environment;
    }

    @Override
    public void wakeUp()
    {
        lock.lock();
        try
        {
            generation++;
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void waitForConditions()
    {
        try
        {
            waitNs(new ArrayList<>(), Long.MAX_VALUE);
        }
        catch (final TimeoutException ex)
        {
            throw new AssertionError("an infinite wait timed out", ex);
        }
    }

    @Override
    public void waitForConditions(final Collection<Condition> activeConditions)
    {
        try
        {
            waitNs(activeConditions, Long.MAX_VALUE);
        }
        catch (final TimeoutException ex)
        {
            throw new AssertionError("an infinite wait timed out", ex);
        }
    }

    @Override
    public void waitForConditions(final Duration timeout) throws TimeoutException
    {
        waitNs(new ArrayList<>(), DurationImpl.toNanos(timeout));
    }

    @Override
    public void waitForConditions(final long timeout, final TimeUnit unit) throws TimeoutException
    {
        waitNs(new ArrayList<>(), unit.toNanos(timeout));
    }

    @Override
    public void waitForConditions(final Collection<Condition> activeConditions, final Duration timeout)
        throws TimeoutException
    {
        waitNs(activeConditions, DurationImpl.toNanos(timeout));
    }

    @Override
    public void waitForConditions(
        final Collection<Condition> activeConditions, final long timeout, final TimeUnit unit)
        throws TimeoutException
    {
        waitNs(activeConditions, unit.toNanos(timeout));
    }

    private void waitNs(final Collection<Condition> active, final long timeoutNs)
        throws TimeoutException
    {
        if (active == null)
        {
            throw new IllegalArgumentException("WaitSet.waitForConditions: null activeConditions collection");
        }
        final long deadlineNs = timeoutNs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
        active.clear();
        lock.lock();
        try
        {
            while (true)
            {
                final long seen = generation;
                lock.unlock();
                try
                {
                    collectTriggered(active);
                }
                finally
                {
                    lock.lock();
                }
                if (!active.isEmpty())
                {
                    return;
                }
                if (seen != generation)
                {
                    continue;
                }
                awaitChange(deadlineNs, timeoutNs);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Waits, holding {@code lock}, until a condition changed or the deadline passed (then throws). */
    private void awaitChange(final long deadlineNs, final long timeoutNs) throws TimeoutException
    {
        if (deadlineNs == Long.MAX_VALUE)
        {
            changed.awaitUninterruptibly();
            return;
        }
        final long remainingNs = deadlineNs - System.nanoTime();
        if (remainingNs <= 0)
        {
            throw new TimeoutException("WaitSet: no attached condition (of " + conditions.size() +
                ") triggered within " + timeoutNs + " ns");
        }
        try
        {
            changed.awaitNanos(remainingNs);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new TimeoutException("WaitSet wait interrupted");
        }
    }

    private void collectTriggered(final Collection<Condition> active)
    {
        for (final Condition condition : conditions)
        {
            if (condition.getTriggerValue())
            {
                active.add(condition);
            }
        }
    }

    @Override
    public void attachCondition(final Condition condition)
    {
        if (!(condition instanceof LinkedCondition linked))
        {
            throw new IllegalArgumentException("WaitSet.attachCondition: not a Sirocco condition: " + condition);
        }
        if (conditions.addIfAbsent(condition))
        {
            linked.links().attach(this);
        }
        wakeUp();
    }

    @Override
    public void detachCondition(final Condition condition)
    {
        if (!conditions.remove(condition))
        {
            throw DdsExceptions.precondition(environment, "WaitSet.detachCondition: condition is not attached: " +
                condition);
        }
        ((LinkedCondition)condition).links().detach(this);
    }

    @Override
    public Collection<Condition> getConditions()
    {
        return List.copyOf(conditions);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return environment;
    }
}
