package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

import io.sirocco.pubsub.bus.BusMessage;

/**
 * A RELIABLE writer's messages written before the first view that makes this member a sender of the topic subgroup
 * was installed here, or while the member was out of the group (excluded, until a view takes it back in). Members install a view one after the other: a remote reader can see the writer matched (its
 * view holds the writer's sending rank) while this member still waits for that view, so a sample written then must
 * not be dropped. It is kept here, fully encoded (header and payload), and sent, in order, before the writer's next
 * message once the view is here (or while the writer waits for acknowledgments).
 *
 * <p>Bounded at {@value #MAX_MESSAGES} messages: beyond that the write times out, as a reliable write does when
 * nobody makes room. Allocates one array per message: only while no view makes the member a sender, never on the
 * steady path.
 *
 * <p>Concurrency: used only under the owning {@link GroupWriter}'s send lock.
 */
final class BeforeFirstView
{
    static final int MAX_MESSAGES = 1024;

    private final ArrayDeque<byte[]> messages = new ArrayDeque<>();
    private final BusHeader header = new BusHeader();

    boolean isEmpty()
    {
        return messages.isEmpty();
    }

    /** Keeps an encoded copy of the message; false when full (the write then times out). */
    boolean keep(final BusMessage message, final long target)
    {
        if (messages.size() >= MAX_MESSAGES)
        {
            return false;
        }
        final int payloadLength = message.payloadLength();
        final byte[] copy = new byte[BusHeader.LENGTH + payloadLength];
        final MemorySegment segment = MemorySegment.ofArray(copy);
        header.wrap(segment).write(message, payloadLength, target);
        MemorySegment.copy(message.payloadSegment(), 0, segment, BusHeader.LENGTH, payloadLength);
        messages.addLast(copy);
        return true;
    }

    /** The oldest message still to send, or null. */
    byte[] peek()
    {
        return messages.peekFirst();
    }

    /** The oldest message was sent. */
    void sent()
    {
        messages.pollFirst();
    }

    /** Whether nothing more fits: a writer then waits for a sending view (up to its max_blocking_time). */
    boolean isFull()
    {
        return messages.size() >= MAX_MESSAGES;
    }

    int size()
    {
        return messages.size();
    }
}
