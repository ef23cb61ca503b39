package io.sirocco.multicast;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import io.sirocco.multicast.contact.ContactSettings;
import io.sirocco.multicast.contact.NetRegistry;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.spi.GroupDirectory;
import io.sirocco.multicast.view.ShmRegistry;

/**
 * The one face of atomic-multicast that a caller building groups for its domains (pubsub-core) uses beyond the
 * group API itself: the host's shared-memory registry, the network membership registry built from contact settings,
 * the join with either, and the predicate thread's tuning and doorbell. Every method delegates to the package that
 * implements it, so those packages can change behind it. Stateless.
 */
public final class DomainGroups
{
    private DomainGroups()
    {
    }

    /** The directory under which shared-memory row tables live ({@code /dev/shm} or {@code sirocco.multicast.shm.dir}). */
    public static Path shmRoot()
    {
        return GroupDirectory.root();
    }

    /** The members announced in the group's shared-memory registry on this host (live or not). */
    public static List<Member> announcedOnHost(final String groupName)
    {
        return new ShmRegistry(groupName).announced();
    }

    /** The directory of the group's shared-memory registry on this host. */
    public static Path hostRegistryDirectory(final String groupName)
    {
        return new ShmRegistry(groupName).directory();
    }

    /** Removes the group's shared-memory registry on this host (a stale one from a crashed run). */
    public static void removeHostRegistry(final String groupName)
    {
        ShmRegistry.destroy(groupName);
    }

    /**
     * A network membership registry listening on {@code bindHost:port}, contacting {@code peers} (comma-separated,
     * entries without a port get {@code port}) and, with {@code multicast}, sending and hearing UDP beacons.
     */
    public static NetworkMembership networkMembership(final String groupName, final long memberId,
        final String bindHost, final int port, final String peers, final boolean multicast,
        final String multicastGroup, final int multicastPort, final long beaconPeriodMs, final long discoveryWaitMs)
    {
        final ContactSettings settings = new ContactSettings(bindHost, port, ContactSettings.parsePeers(peers, port),
            multicast, multicastGroup, multicastPort, beaconPeriodMs, discoveryWaitMs);
        return new NetworkMembership(new NetRegistry(groupName, memberId, settings));
    }

    /**
     * {@link Group#join(GroupConfig, io.sirocco.multicast.view.MembershipRegistry, List, MembershipListener,
     * Duration)} through {@code network}, or through the registry {@link GroupConfig#registry()} names when it is null.
     */
    public static Group join(final GroupConfig config, final NetworkMembership network,
        final List<Group.SubgroupRegistration> subgroups, final MembershipListener listener, final Duration timeout)
        throws TimeoutException
    {
        return Group.join(config, network == null ? null : network.registry(), subgroups, listener, timeout);
    }

    /** Sets the predicate thread's hot spin window and adaptive spin switch (see {@code sirocco.idle.*}). */
    public static void tuneIdle(final Group group, final long spinWindowNs, final long adaptiveSpinNs)
    {
        group.predicateEngine().spinWindowNs(spinWindowNs);
        group.predicateEngine().adaptiveSpinNs(adaptiveSpinNs);
    }

    /** Rings the group's predicate thread (for example: a full reader window has room again). */
    public static Runnable doorbell(final Group group)
    {
        return group.predicateEngine()::wake;
    }

    /** Whether the calling thread is the group's predicate thread. */
    public static boolean onPredicateThread(final Group group)
    {
        return group.predicateEngine().onEngineThread();
    }
}
