package io.sirocco.transport.idle;

/**
 * How a polling thread waits when it found no work. Stateful and confined to one thread: call {@link #idle()} after
 * each empty poll and {@link #reset()} after work. It is an Agrona idle strategy too, so an
 * {@link io.sirocco.transport.agent.Agents agent} runs with it: {@link #idle(int)} resets on work and idles on none.
 */
public interface IdleStrategy extends org.agrona.concurrent.IdleStrategy
{
    @Override
    void idle();

    @Override
    void reset();

    @Override
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

    /** True once the strategy has reached its parking phase (long idle): a doorbell may then be needed to wake it. */
    boolean parking();
}
