package io.sirocco.transport.nio;

import java.nio.channels.Selector;

import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.spi.Connection;

/**
 * Connections whose output the selector loop must write. Producer threads never touch selection keys: {@link #queue}
 * sets bits in the connection's interest word, and only the thread that turns the word from zero enqueues the
 * connection (so a busy connection costs one atomic read per message). The selector is woken only if it is blocked
 * in {@code select}: {@code selecting} (volatile, written by the loop's leader around its blocking select) and the
 * queue form a Dekker pair, so a connection queued while the leader decides to block is either seen by its
 * {@code isEmpty} check or wakes it.
 *
 * <p>Many producers (any sending thread), one consumer at a time (the selector loop's leader).
 */
final class InterestQueue
{
    private final MpmcArrayQueue<Connection> interests = new MpmcArrayQueue<>(1 << 16);
    private final Selector selector;
    private volatile boolean selecting;

    InterestQueue(final Selector selector)
    {
        this.selector = selector;
    }

    void queue(final Connection connection, final int bits)
    {
        if (connection.addInterest(bits))
        {
            while (!interests.offer(connection))
            {
                Thread.onSpinWait();
            }
            if (selecting)
            {
                selector.wakeup();
            }
        }
    }

    Connection poll()
    {
        return interests.poll();
    }

    boolean isEmpty()
    {
        return interests.isEmpty();
    }

    /** The leader is about to block in (true) or came back from (false) a {@code select}. */
    void selecting(final boolean value)
    {
        selecting = value;
    }
}
