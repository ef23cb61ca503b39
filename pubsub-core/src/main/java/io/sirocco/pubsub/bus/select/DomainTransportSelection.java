package io.sirocco.pubsub.bus.select;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The row transport a participant uses, decided from the configured {@code sirocco.dds.transport}, the discovery mode and
 * whether this host's shared-memory root is usable, with the reason to log. Pure (the shm probe is passed in), so the
 * whole decision table is unit-tested; {@link BusSelector} applies it and logs {@link #reason()} at INFO, or at WARN
 * when {@link #warn()} (a fallback, or a configuration that only works under a condition the user must ensure).
 *
 * <p>The table ({@code network} = discovery {@code peers} or {@code multicast}):
 * <ul>
 *   <li>{@code auto}, network: {@code mixed} (shared memory with members of the same host identity, tcp with the
 *       others); if the shm root is unusable, {@code tcp} with a WARN.</li>
 *   <li>{@code auto}, shm discovery: {@code shm} (every member is on this host); {@link BusSelector} falls back to
 *       {@code local} with a WARN if the group cannot be joined.</li>
 *   <li>{@code shm}: {@code shm}, with a WARN under network discovery (every member must be on this host).</li>
 *   <li>{@code mixed}: {@code mixed}; fails when the shm root is unusable (configured, so never replaced
 *       silently).</li>
 *   <li>{@code tcp}, {@code local}: as configured.</li>
 * </ul>
 *
 * @param transport the row transport to use: {@code mixed}, {@code shm}, {@code tcp} or {@code local}.
 * @param warn      whether {@link #reason()} is logged at WARN (a fallback or a conditional configuration).
 * @param reason    why, naming the domain, the setting and the discovery.
 */
public record DomainTransportSelection(String transport, boolean warn, String reason)
{
    /** Transport names {@code sirocco.dds.transport} accepts. */
    public static final String ACCEPTED = "auto, mixed, shm, tcp or local";

    /**
     * @param domainId         the domain (for the messages).
     * @param configured       {@code sirocco.dds.transport}, lower case.
     * @param discovery        {@code sirocco.dds.discovery} after {@code auto} was resolved: shm, peers or multicast.
     * @param hostIdentity     this process's host identity (members with the same one share memory).
     * @param shmProblem       why this host's shm root cannot hold tables, or null when it can.
     * @return the choice.
     * @throws IllegalArgumentException for an unknown transport, or {@code mixed} with an unusable shm root.
     */
    public static DomainTransportSelection choose(final int domainId, final String configured, final String discovery,
        final String hostIdentity, final String shmProblem)
    {
        final boolean network = !"shm".equals(discovery);
        final String domain = "domain " + domainId + ": ";
        switch (configured)
        {
            case "auto" ->
            {
                return byDefault(domain, network, discovery, hostIdentity, shmProblem);
            }
            case "mixed" ->
            {
                if (shmProblem != null)
                {
                    throw new IllegalArgumentException(domain + "transport 'mixed' as configured " +
                        "(sirocco.dds.transport) cannot run: " + shmProblem + "; use sirocco.dds.transport=tcp");
                }
                return select("mixed", false, domain + "transport 'mixed' as configured: shared " +
                    "memory with members of this host identity (" + hostIdentity + "), tcp with the others; " +
                    "discovery '" + discovery + "'" + (network ? "" : " (this host's registry: every member is on " +
                    "this host, so every pair shares memory, by one copy per peer where 'shm' shares one table)"));
            }
            case "shm" ->
            {
                if (network)
                {
                    return select("shm", true, domain + "transport 'shm' as configured with " +
                        "discovery '" + discovery + "': members are found over the network but rows are shared " +
                        "memory, so every member must run on this host");
                }
                return select("shm", false, domain + "transport 'shm' as configured; discovery 'shm'");
            }
            case "tcp" ->
            {
                return select("tcp", false, domain + "transport 'tcp' as configured; discovery '" +
                    discovery + "'" + (network ? "" : " (membership through this host's per-domain registry: " +
                    "members on other hosts need sirocco.dds.peers or sirocco.dds.discovery=multicast)"));
            }
            case "local" ->
            {
                return select("local", false, domain + "transport 'local' (in-process only) as " +
                    "configured");
            }
            default -> throw new IllegalArgumentException(domain + "unknown transport '" + configured +
                "' (sirocco.dds.transport / SIROCCO_DDS_TRANSPORT): expected " + ACCEPTED);
        }
    }

    /** {@code auto}: shm under shm discovery, else mixed (tcp when the shm root is unusable). */
    private static DomainTransportSelection byDefault(final String domain, final boolean network,
        final String discovery, final String hostIdentity, final String shmProblem)
    {
        if (!network)
        {
            return select("shm", false, domain + "transport 'shm' chosen by default: " +
                "discovery through the per-domain registry of this host, so every member is on this host");
        }
        if (shmProblem != null)
        {
            return select("tcp", true, domain + "transport 'mixed' not usable (" + shmProblem +
                "); FALLING BACK to 'tcp' for every peer, including members on this host (discovery '" +
                discovery + "')");
        }
        return select("mixed", false, domain + "transport 'mixed' chosen by default: " +
            "discovery '" + discovery + "' may find members on other hosts; shared memory with members of " +
            "this host identity (" + hostIdentity + "), tcp with the others (set sirocco.dds.transport=tcp or " +
            "shm to use one path for all)");
    }

    /**
     * @param root the shm root ({@code sirocco.multicast.shm.dir}, else {@code /dev/shm}).
     * @return why tables cannot be created under it, or null when they can.
     */
    public static String shmProblem(final Path root)
    {
        if (!Files.isDirectory(root))
        {
            return "shm root " + root + " is not a directory (sirocco.multicast.shm.dir)";
        }
        if (!Files.isWritable(root))
        {
            return "shm root " + root + " is not writable (sirocco.multicast.shm.dir)";
        }
        return null;
    }

    private static DomainTransportSelection select(final String transport, final boolean warn, final String reason)
    {
        return new DomainTransportSelection(transport, warn, reason);
    }
}
