package io.sirocco.transport.idle;

/**
 * How a polling thread waits when it found no work. Stateful and confined to one thread: call {@link #idle()} after
 * each empty poll and {@link #reset()} after work.
 */
public interface IdleStrategy
{
    void idle();

    void reset();

    /** True once the strategy has reached its parking phase (long idle): a doorbell may then be needed to wake it. */
    boolean parking();

    default void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }
}
