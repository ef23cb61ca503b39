package io.sirocco.pubsub.rtps.discovery;

import java.util.HashSet;

/**
 * Whether a local endpoint and a remote one of the other direction match (DDS 1.4, 2.2.3): same topic and type
 * name, a PARTITION in common (both default counts; no wildcards yet), and RELIABILITY requested-offered compatible
 * (a best-effort writer serves only best-effort readers). Stateless.
 */
public final class Matching
{
    private Matching()
    {
    }

    public static boolean matches(final LocalEndpoint local, final DiscoveredEndpoint remote)
    {
        if (local.writer() == remote.writer() || !local.topicName().equals(remote.topicName())
            || !local.typeName().equals(remote.typeName()))
        {
            return false;
        }
        final boolean writerReliable = local.writer() ? local.reliable() : remote.reliable();
        final boolean readerReliable = local.writer() ? remote.reliable() : local.reliable();
        if (readerReliable && !writerReliable)
        {
            return false;
        }
        if (local.partitions().isEmpty() || remote.partitions().isEmpty())
        {
            return local.partitions().isEmpty() == remote.partitions().isEmpty();
        }
        final HashSet<String> common = new HashSet<>(local.partitions());
        common.retainAll(remote.partitions());
        return !common.isEmpty();
    }
}
