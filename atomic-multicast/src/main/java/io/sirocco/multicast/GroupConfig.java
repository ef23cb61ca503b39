package io.sirocco.multicast;

import java.util.concurrent.ThreadLocalRandom;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.RowTransportProviders;

import java.util.Objects;

/**
 * Configuration of one member of one group. Every protocol constant is here with its default (documented in
 * {@code docs/configuration.md}).
 *
 * @param groupName           the group (one DDS domain): names the registry and the shared tables.
 * @param memberId            this member's id, unique in the group (default: a random positive long).
 * @param transport           row transport: {@code shm} (default), {@code local}, {@code tcp}, or a provider name.
 * @param registry            {@code shm} (files in /dev/shm, default) or {@code local} (in-JVM).
 * @param contact             this member forms the first view (default false: wait for a view containing it).
 * @param initialMembers      the contact forms the first view once this many members announced (default 1).
 * @param heartbeatPeriodMs   heartbeat counter period (default 10 ms).
 * @param suspicionTimeoutMs  a member whose heartbeat did not move for this long is suspected (default 2000 ms).
 * @param registryPollMs      how often the leader looks for joiners and changed registrations (default 50 ms).
 * @param spinPasses          predicate thread idle passes spent spinning (default 2000; for {@code shm} on a host
 *                            with fewer than 4 cores 0 when futex doorbells work, else 50, see {@link #defaults}).
 * @param yieldPasses         then yielding (default 200; 0 for {@code shm} with fewer than 4 cores).
 * @param maxParkNs           then parking, at most this long per park (default 200 µs).
 * @param spindle             the Spindle optimization switches (default all on).
 * @param endpoint            this member's transport address (tcp), default empty.
 */
public record GroupConfig(
    String groupName,
    long memberId,
    String transport,
    String registry,
    boolean contact,
    int initialMembers,
    long heartbeatPeriodMs,
    long suspicionTimeoutMs,
    long registryPollMs,
    int spinPasses,
    int yieldPasses,
    long maxParkNs,
    SpindleOptions spindle,
    String endpoint)
{
    public GroupConfig
    {
        Objects.requireNonNull(groupName, "groupName");
        if (!groupName.matches("[A-Za-z0-9_.-]+"))
        {
            throw new IllegalArgumentException("group name must match [A-Za-z0-9_.-]+: '" + groupName + "'");
        }
        if (memberId <= 0)
        {
            throw new IllegalArgumentException("memberId must be positive: " + memberId);
        }
    }

    /**
     * Fewer cores than the busy threads of the members of one host (every member's predicate thread, plus their
     * application threads): an idle predicate thread that spins or yields stays runnable and takes the core from the
     * peer whose step it waits for. Measured with three {@code shm} members on two cores (docs/benchmarks.md, delayed
     * sender): with 2000 spins and 200 yields the predicate threads waited runnable 62-82 % of the time and spent about
     * 98 % of their passes idle; a thread that parks leaves the run queue and, woken, is placed ahead of threads that
     * ran their share (a busy application thread), so the step it owes runs sooner.
     */
    private static final boolean FEW_CORES = Runtime.getRuntime().availableProcessors() < 4;

    /**
     * The default idle policy of a transport: with {@code shm} on fewer than 4 cores (every member shares this host's
     * cores) no yields, and no spins either when the shm doorbell works ({@link RowTransportProvider#doorbell()}, the futex: an idle predicate
     * thread sleeps on its bell and the other members' pushes wake it, so a spin only takes the core from the peer
     * whose step it waits for, such as a delayed member's predicate thread that owes the nulls; docs/benchmarks.md,
     * delayed sender), else 50 spins before the timed park, as the transport's overprovisioning rule ({@code
     * sirocco.transport.idle.spins}); otherwise 2000 spins and 200 yields (the paper's dedicated cores).
     */
    private static int defaultSpins(final String transport)
    {
        if (FEW_CORES && "shm".equals(transport))
        {
            return RowTransportProviders.find("shm").map(RowTransportProvider::doorbell).orElse(false) ? 0 : 50;
        }
        return 2000;
    }

    private static int defaultYields(final String transport)
    {
        return FEW_CORES && "shm".equals(transport) ? 0 : 200;
    }

    /** Defaults for a member of {@code groupName} with a random id. */
    public static GroupConfig defaults(final String groupName)
    {
        return new GroupConfig(groupName, (ThreadLocalRandom.current().nextLong() >>> 1) | 1,
            "shm", "shm", false, 1, 10, 2000, 50, defaultSpins("shm"), defaultYields("shm"), 200_000,
            SpindleOptions.ALL_ON, "");
    }

    public GroupConfig withMemberId(final long id)
    {
        return new GroupConfig(groupName, id, transport, registry, contact, initialMembers, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, spindle, endpoint);
    }

    /**
     * Sets the row transport. An idle policy still at the previous transport's default follows the new transport's
     * default ({@link #defaultSpins}); one set by {@link #withIdle} is kept.
     */
    public GroupConfig withTransport(final String t)
    {
        final boolean idleDefault = spinPasses == defaultSpins(transport) && yieldPasses == defaultYields(transport);
        return new GroupConfig(groupName, memberId, t, "local".equals(t) ? "local" : registry, contact,
            initialMembers, heartbeatPeriodMs, suspicionTimeoutMs, registryPollMs,
            idleDefault ? defaultSpins(t) : spinPasses, idleDefault ? defaultYields(t) : yieldPasses,
            maxParkNs, spindle, endpoint);
    }

    public GroupConfig withRegistry(final String r)
    {
        return new GroupConfig(groupName, memberId, transport, r, contact, initialMembers, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, spindle, endpoint);
    }

    public GroupConfig withContact(final boolean c, final int initial)
    {
        return new GroupConfig(groupName, memberId, transport, registry, c, initial, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, spindle, endpoint);
    }

    public GroupConfig withFailureDetection(final long heartbeatMs, final long suspicionMs)
    {
        return new GroupConfig(groupName, memberId, transport, registry, contact, initialMembers, heartbeatMs,
            suspicionMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, spindle, endpoint);
    }

    public GroupConfig withIdle(final int spin, final int yield, final long parkNs)
    {
        return new GroupConfig(groupName, memberId, transport, registry, contact, initialMembers, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spin, yield, parkNs, spindle, endpoint);
    }

    public GroupConfig withSpindle(final SpindleOptions s)
    {
        return new GroupConfig(groupName, memberId, transport, registry, contact, initialMembers, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, s, endpoint);
    }

    public GroupConfig withEndpoint(final String e)
    {
        return new GroupConfig(groupName, memberId, transport, registry, contact, initialMembers, heartbeatPeriodMs,
            suspicionTimeoutMs, registryPollMs, spinPasses, yieldPasses, maxParkNs, spindle, e);
    }
}
