package io.sirocco.pubsub.bus.group;

import java.util.List;
import java.util.Optional;

import io.sirocco.multicast.DomainGroups;
import io.sirocco.multicast.model.Member;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who forms a domain's group on one host under shared-memory discovery: the first live process. Stateless.
 */
final class HostContact
{
    private static final Logger LOG = LoggerFactory.getLogger(HostContact.class);

    private HostContact()
    {
    }

    /**
     * Zero-config on one host: the first process of a domain forms the group. The per-domain registry
     * ({@code /dev/shm/sirocco-dds-d<N>}) lists the announced members; if none of them is a live process, a stale
     * directory from a crashed run is removed and this member becomes the contact.
     */
    static boolean noLiveMember(final String groupName)
    {
        final List<Member> announced = DomainGroups.announcedOnHost(groupName);
        for (final Member member : announced)
        {
            final Optional<ProcessHandle> process = ProcessHandle.of(member.pid());
            if (process.isPresent() && process.get().isAlive())
            {
                return false;
            }
        }
        if (!announced.isEmpty())
        {
            LOG.debug("group '{}': registry {} lists only dead processes; removing it and forming a new group",
                groupName, DomainGroups.hostRegistryDirectory(groupName));
        }
        DomainGroups.removeHostRegistry(groupName);
        return true;
    }
}
