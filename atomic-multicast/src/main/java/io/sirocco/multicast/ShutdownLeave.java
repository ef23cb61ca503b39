package io.sirocco.multicast;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes every group of this JVM that is still open when the JVM shuts down: an application whose {@code main}
 * returns without closing its participant (every Sirocco thread is a daemon, so the JVM exits), {@code System.exit},
 * or a SIGTERM. The members leave as {@code Group.close()} makes them (a view change for the others, not a crash
 * they detect after the suspicion timeout), and the last member of a group on a host removes the group's shared-memory
 * directory: nothing of the process stays under the shm root. A SIGKILL runs no hook; the next member that founds the
 * group removes those leftovers.
 *
 * <p>One hook per JVM, registered when the first group opens. Concurrent set: groups open and close on any thread,
 * and the hook runs on its own.
 */
final class ShutdownLeave
{
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownLeave.class);
    /**
     * Open groups (keyed by the group, typed Object so that this class does not refer back to {@code Group}), each
     * with what closes it: its own close, or its owner's (a DDS participant retracts its entities first).
     */
    private static final Map<Object, Closer> OPEN = new ConcurrentHashMap<>();

    /** What closes one group, and what it is (for the log). */
    private record Closer(String what, Runnable close)
    {
    }
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    private ShutdownLeave()
    {
    }

    /**
     * A group joined: closed by the hook unless it closes first.
     *
     * @param group the group (a key only).
     * @param what  the member and group, for the log.
     * @param close the group's close.
     */
    static void opened(final Object group, final String what, final Runnable close)
    {
        if (HOOKED.compareAndSet(false, true))
        {
            Runtime.getRuntime().addShutdownHook(Agents.threadFactory("shutdown-leave").newThread(
                ShutdownLeave::closeAll));
        }
        OPEN.putIfAbsent(group, new Closer(what, close));
    }

    /** What closes an open group at shutdown instead of its own close (which {@code closer} must end with). */
    static void closer(final Object group, final Runnable closer)
    {
        OPEN.computeIfPresent(group, (g, old) -> new Closer(old.what(), closer));
    }

    /** A group closed or halted: nothing left for the hook. */
    static void closed(final Object group)
    {
        OPEN.remove(group);
    }

    private static void closeAll()
    {
        for (final Closer open : OPEN.values())
        {
            try
            {
                LOG.debug("JVM shutdown: {} leaves (it was not closed)", open.what());
                open.close().run();
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("JVM shutdown: {} could not leave cleanly: {}", open.what(), ex.toString());
            }
        }
    }
}
