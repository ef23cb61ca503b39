package io.sirocco.examples.cli.soak;

import java.io.IOException;
import java.io.InputStream;

import io.sirocco.transport.agent.Agents;

/**
 * Whether this process's standard input has ended: the supervisor's way of telling a soak node to finish (close its
 * pipe), which, unlike a signal, lets the node drain and report. One reader thread; the flag is volatile.
 */
final class StdinClosed
{
    private volatile boolean closed;

    private StdinClosed()
    {
    }

    static StdinClosed watch(final InputStream in)
    {
        final StdinClosed watch = new StdinClosed();
        final Thread reader = Agents.threadFactory("soak-stdin").newThread(() ->
        {
            final byte[] buffer = new byte[256];
            try
            {
                while (in.read(buffer) >= 0)
                {
                    // Nothing is sent on the pipe; only its end matters.
                }
            }
            catch (final IOException ex)
            {
                // A broken pipe is an end too.
            }
            watch.closed = true;
        });
        reader.setDaemon(true);
        reader.start();
        return watch;
    }

    boolean closed()
    {
        return closed;
    }
}
