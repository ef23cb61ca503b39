package io.sirocco.pubsub.sub;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets closing a reader wait for a listener call in progress, so that a listener which takes with a loan and returns
 * it is never caught holding it by close(). DDS makes a loan still open at close a precondition error of the
 * application; a listener call the middleware itself is still making must not turn into one.
 *
 * <p>Concurrency: whoever delivers a batch (the reader's delivery thread, or an inline deliverer) holds {@code calls}
 * for that batch's listener calls ({@link #enter}/{@link #exit}); close() takes it ({@link #hold}) to wait for such a
 * call to return, checks the loans, and {@link #shut}s the gate so no listener call starts afterwards. Reentrant, so
 * a listener may close its own reader. A listener that never returns therefore blocks the close of its reader.
 */
final class ListenerGate
{
    private final ReentrantLock calls = new ReentrantLock();
    /** Guarded by {@code calls}. */
    private boolean shut;

    /** Delivery side: true, holding the gate, when listeners may be called; call {@link #exit} after them. */
    boolean enter()
    {
        calls.lock();
        if (shut)
        {
            calls.unlock();
            return false;
        }
        return true;
    }

    void exit()
    {
        calls.unlock();
    }

    /** Delivery side: runs {@code listenerCalls} inside the gate, unless the reader is closing. */
    void run(final Runnable listenerCalls)
    {
        if (enter())
        {
            try
            {
                listenerCalls.run();
            }
            finally
            {
                exit();
            }
        }
    }

    /** Close side: waits until no listener call is in progress on another thread, then holds the gate. */
    void hold()
    {
        calls.lock();
    }

    /** While held: no listener call starts from now on. */
    void shut()
    {
        shut = true;
    }

    void release()
    {
        calls.unlock();
    }
}
