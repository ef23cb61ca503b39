package io.sirocco.pubsub.entity;

import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.pubsub.core.DdsExceptions;
import org.omg.dds.core.ServiceEnvironment;

/**
 * How many begin/end brackets of one kind are open on an entity: a Publisher's coherent sets
 * ({@code beginCoherentChanges}/{@code endCoherentChanges}) or a Subscriber's accesses ({@code beginAccess}/
 * {@code endAccess}). Brackets nest; an end without an open bracket is refused, as DDS 1.4 §2.2.2.4.1.11 and
 * §2.2.2.5.2.9 say.
 *
 * <p>Threads: any; the count is one atomic integer (a cold path, never per sample).
 */
public final class NestedBrackets
{
    private final AtomicInteger open = new AtomicInteger();

    /** Opens a bracket; returns how many are open now (1: the outermost). */
    public int begin()
    {
        return open.incrementAndGet();
    }

    /**
     * Closes the innermost bracket and returns how many stay open (0: the outermost closed); PreconditionNotMetException
     * with {@code misuse} when none is open.
     */
    public int end(final ServiceEnvironment env, final String misuse)
    {
        final int before = open.getAndUpdate(n -> n > 0 ? n - 1 : 0);
        if (before == 0)
        {
            throw DdsExceptions.precondition(env, misuse);
        }
        return before - 1;
    }
}
