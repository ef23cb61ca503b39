package io.sirocco.pubsub.timer;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import io.sirocco.transport.agent.Agents;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

/**
 * A participant's one timer wheel (QoS deadlines and leases): an agent thread, {@code sirocco-timers-<name>}, started
 * when the first check is added, that owns an Agrona {@link DeadlineTimerWheel} with ~1 ms ticks and runs each
 * {@link TimedCheck} when its deadline comes. No thread and no timer per instance: an entity adds one check, which
 * scans its own instances and returns its next deadline.
 *
 * <p>Threads: {@link #add} may be called from any thread; it queues the check (a concurrent queue), and the agent
 * thread alone touches the wheel and the timer map. A check runs on the agent thread; removing one is returning
 * {@link TimedCheck#DONE} from it.
 */
public final class ParticipantTimers implements Agent, AutoCloseable
{
    /** Tick of the wheel: 2^20 ns (about 1 ms), the precision of every deadline it runs. */
    private static final long TICK_NS = 1L << 20;
    private static final int TICKS_PER_WHEEL = 1024;

    private final String roleName;
    /** Checks added by any thread, drained by the agent (rare: one per endpoint and period change). */
    private final ConcurrentLinkedQueue<Object[]> added = new ConcurrentLinkedQueue<>();
    private final Long2ObjectHashMap<TimedCheck> byTimer = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler onExpiry = this::onExpiry;
    private DeadlineTimerWheel wheel;
    private AgentRunner runner;
    private boolean closed;

    /** @param name names the thread, e.g. {@code d7-0a3f1}. */
    public ParticipantTimers(final String name)
    {
        this.roleName = "timers-" + name;
    }

    /**
     * Runs {@code check} at {@code firstDeadlineNs} (System.nanoTime), then at each deadline it returns.
     *
     * @throws IllegalStateException when the participant is closed.
     */
    public synchronized void add(final TimedCheck check, final long firstDeadlineNs)
    {
        if (closed)
        {
            throw new IllegalStateException(roleName + " is closed");
        }
        if (runner == null)
        {
            runner = Agents.start(this, new SleepingMillisIdleStrategy(1));
        }
        added.add(new Object[] {check, firstDeadlineNs});
    }

    @Override
    public void onStart()
    {
        wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, System.nanoTime(), TICK_NS, TICKS_PER_WHEEL);
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (Object[] entry = added.poll(); entry != null; entry = added.poll())
        {
            schedule((TimedCheck)entry[0], (Long)entry[1]);
            work++;
        }
        // The wheel advances one tick per poll: catch up to now, or a wheel polled less often than once a tick (an idle
        // sleep longer than 1 ms on a loaded machine) falls further behind the clock with every poll.
        final long nowNs = System.nanoTime();
        do
        {
            work += wheel.poll(nowNs, onExpiry, Integer.MAX_VALUE);
        }
        while (wheel.currentTickTime() <= nowNs);
        return work;
    }

    private void schedule(final TimedCheck check, final long deadlineNs)
    {
        byTimer.put(wheel.scheduleTimer(deadlineNs), check);
    }

    private boolean onExpiry(final TimeUnit unit, final long nowNs, final long timerId)
    {
        final TimedCheck check = byTimer.remove(timerId);
        if (check != null)
        {
            final long next = check.onDeadline(System.nanoTime());
            if (next != TimedCheck.DONE)
            {
                schedule(check, next);
            }
        }
        return true;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /** Stops the agent (a check running now finishes first); the checks not run are dropped. */
    @Override
    public void close()
    {
        final AgentRunner toClose;
        synchronized (this)
        {
            closed = true;
            toClose = runner;
        }
        if (toClose != null)
        {
            toClose.close();
        }
    }
}
