package io.sirocco.transport.agent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts agents and names threads. An agent's duty cycle is Agrona's: {@code doWork()} returns the work it did, and
 * the idle strategy is told after each cycle ({@code idle(workCount)}), so it resets on work and backs off on none.
 * An exception thrown by {@code doWork()} is logged (at most once a second per agent, with a count of the ones not
 * logged) and the agent goes on with its next cycle; {@link org.agrona.concurrent.AgentTerminationException} stops
 * it. {@link AgentRunner#close()} stops the agent and joins its thread.
 *
 * <p>Threads are daemon platform threads named after the agent's role ({@code sirocco-<role>}), so a thread dump
 * says what each one is, and a JVM whose {@code main} returned is not held up by them.
 */
public final class Agents
{
    private static final Logger LOG = LoggerFactory.getLogger(Agents.class);
    private static final String PREFIX = "sirocco-";

    private Agents()
    {
    }

    /**
     * Runs {@code agent} on a new daemon thread named {@code sirocco-<roleName>}.
     *
     * @return the runner; close it to stop the agent and wait for its thread.
     */
    public static AgentRunner start(final Agent agent, final IdleStrategy idle)
    {
        final AgentRunner runner = new AgentRunner(idle, new RateLimitedErrorLog(agent.roleName()), null, agent);
        // not AgentRunner.startOnThread: it renames the thread to the bare role name
        threadFactory(agent.roleName()).newThread(runner).start();
        return runner;
    }

    /**
     * A factory of daemon platform threads named {@code sirocco-<role>} (the first) and {@code sirocco-<role>-<n>}
     * (the n-th after it), for executors and one-off background work.
     */
    public static ThreadFactory threadFactory(final String role)
    {
        final AtomicInteger count = new AtomicInteger();
        return task ->
        {
            final int n = count.getAndIncrement();
            final String name = PREFIX + role + (n == 0 ? "" : "-" + n);
            return Thread.ofPlatform().name(name).daemon(true).unstarted(task);
        };
    }

    /** The name {@link #threadFactory} gives the first thread of {@code role}. */
    public static String threadName(final String role)
    {
        return PREFIX + role;
    }

    /**
     * Logs an agent's errors at WARN, at most one a second, and counts the ones it skipped (a loop that fails on
     * every cycle would otherwise flood the log). Confined to the agent's thread: Agrona calls the error handler
     * from the duty cycle only.
     */
    static final class RateLimitedErrorLog implements ErrorHandler
    {
        private static final long INTERVAL_NS = 1_000_000_000L;
        private final String role;
        private long lastLogNs = Long.MIN_VALUE;
        private long skipped;

        RateLimitedErrorLog(final String role)
        {
            this.role = role;
        }

        @Override
        public void onError(final Throwable error)
        {
            final long now = System.nanoTime();
            if (lastLogNs != Long.MIN_VALUE && now - lastLogNs < INTERVAL_NS)
            {
                skipped++;
                return;
            }
            LOG.warn("agent {} failed a duty cycle and goes on{}", role,
                skipped == 0 ? "" : " (" + skipped + " more errors not logged)", error);
            lastLogNs = now;
            skipped = 0;
        }

        long skipped()
        {
            return skipped;
        }
    }
}
