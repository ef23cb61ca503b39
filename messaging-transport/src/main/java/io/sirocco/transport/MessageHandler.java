package io.sirocco.transport;

/**
 * Receives the messages of one registered (type, subtype) as objects, on a handler thread.
 *
 * <p>Ordered messages from one node always arrive on the same handler thread, in order; unordered ones may arrive
 * concurrently on several handler threads, so a handler shared by unordered types must be thread-safe. A handler may
 * call {@code send}, {@code respond} and {@code request} (but should not block on a response: that holds a handler
 * thread). An exception it throws is logged and does not affect the connection.
 */
@FunctionalInterface
public interface MessageHandler<M extends Message>
{
    void onMessage(M message);
}
