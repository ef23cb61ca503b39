package io.sirocco.log.recovery;

import java.util.concurrent.ThreadFactory;
import java.util.function.IntConsumer;

import io.sirocco.log.disk.LogStorageException;
import io.sirocco.transport.agent.Agents;

/**
 * Runs the parts {@code 0..n-1} of one recovery step at once: part 0 on the calling thread, the others on one-off
 * helper threads named after the step ({@code sirocco-log-recovery-<role>-<n>}), and waits for all of them.
 *
 * <p>Concurrency: each call owns its helpers; a helper's failure is recorded under a lock and rethrown by the caller
 * after the joins, which also make every part's writes visible to the caller. A failure of part 0 is thrown at once.
 */
final class ParallelParts
{
    private ParallelParts()
    {
    }

    /**
     * Runs {@code task(0..n-1)}; rethrows the first failure as a {@link LogStorageException} whose message starts
     * with {@code what} (e.g. "recovery of zone 3/1").
     */
    static void run(final String role, final String what, final int n, final IntConsumer task)
    {
        final ThreadFactory threads = Agents.threadFactory("log-recovery-" + role);
        final Thread[] helpers = new Thread[n - 1];
        final Throwable[] failure = new Throwable[1];
        for (int t = 1; t < n; t++)
        {
            final int part = t;
            helpers[t - 1] = threads.newThread(() ->
            {
                try
                {
                    task.accept(part);
                }
                catch (final Throwable ex)
                {
                    synchronized (failure)
                    {
                        failure[0] = ex;
                    }
                }
            });
            helpers[t - 1].start();
        }
        task.accept(0);
        for (final Thread helper : helpers)
        {
            try
            {
                helper.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new LogStorageException(what + " interrupted", ex);
            }
        }
        synchronized (failure)
        {
            if (failure[0] != null)
            {
                throw new LogStorageException(what + " failed: " + failure[0], failure[0]);
            }
        }
    }
}
