package io.sirocco.multicast.contact;

import org.agrona.concurrent.Agent;

/**
 * The duty cycle of a {@link NetRegistry}'s greetings: one tick (beacon, hellos, announcements) per cycle. It
 * reports no work, so the idle strategy it runs with (a sleep of one beacon period) paces it; interrupting its thread
 * stops it between ticks. Confined to its agent thread.
 */
final class RegistryTicker implements Agent
{
    private final String roleName;
    private final Runnable tick;

    RegistryTicker(final String roleName, final Runnable tick)
    {
        this.roleName = roleName;
        this.tick = tick;
    }

    @Override
    public int doWork()
    {
        tick.run();
        return 0;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
