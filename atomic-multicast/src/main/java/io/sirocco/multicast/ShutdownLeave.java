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
 * or a SIGTERM. The members leave as {@link Group#close()} makes them (a view change for the others, not a crash
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
    /** Open groups, each with what closes it (its own close, or its owner's: a DDS participant retracts first). */
    private static final Map<Group, Runnable> OPEN = new ConcurrentHashMap<>();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    private ShutdownLeave()
    {
    }

    /** A group joined: closed by the hook unless it closes first. */
    static void opened(final Group group)
    {
        if (HOOKED.compareAndSet(false, true))
        {
            Runtime.getRuntime().addShutdownHook(Agents.threadFactory("shutdown-leave").newThread(
                ShutdownLeave::closeAll));
        }
        OPEN.putIfAbsent(group, group::close);
    }

    /** What closes an open group at shutdown instead of {@link Group#close()} (which it must end with). */
    static void closer(final Group group, final Runnable closer)
    {
        OPEN.replace(group, closer);
    }

    /** A group closed or halted: nothing left for the hook. */
    static void closed(final Group group)
    {
        OPEN.remove(group);
    }

    private static void closeAll()
    {
        for (final Map.Entry<Group, Runnable> open : OPEN.entrySet())
        {
            final Group group = open.getKey();
            try
            {
                LOG.debug("JVM shutdown: member {} leaves group '{}' (it was not closed)", group.memberId(),
                    group.config().groupName());
                open.getValue().run();
            }
            catch (final RuntimeException ex)
            {
                LOG.debug("JVM shutdown: member {} of group '{}' could not leave cleanly: {}", group.memberId(),
                    group.config().groupName(), ex.toString());
            }
        }
    }
}
