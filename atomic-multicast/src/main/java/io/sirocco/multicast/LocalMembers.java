package io.sirocco.multicast;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The members of this JVM, by group name and member id, from the start of their join until they close or halt: a
 * member of this process whose group is gone or whose predicate thread died does not run, although its pid lives
 * (tests, and several DDS participants of one domain in one process). Each member registers a test of whether it
 * still runs. Concurrent map: joins, closes and the rejoiners' reads come from any thread.
 */
final class LocalMembers
{
    private static final Map<String, BooleanSupplier> RUNNING = new ConcurrentHashMap<>();

    private LocalMembers()
    {
    }

    private static String key(final String groupName, final long memberId)
    {
        return groupName + "/" + memberId;
    }

    static void add(final String groupName, final long memberId, final BooleanSupplier running)
    {
        RUNNING.put(key(groupName, memberId), running);
    }

    /** Removes the entry only if it is still {@code running} (a later member of the same id may have replaced it). */
    static void remove(final String groupName, final long memberId, final BooleanSupplier running)
    {
        RUNNING.remove(key(groupName, memberId), running);
    }

    /** @return whether a member of this JVM with that id is registered and still runs. */
    static boolean runs(final String groupName, final long memberId)
    {
        final BooleanSupplier running = RUNNING.get(key(groupName, memberId));
        return running != null && running.getAsBoolean();
    }
}
