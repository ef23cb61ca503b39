package io.sirocco.pubsub.rtps;

import java.util.List;

/**
 * How an RTPS participant runs.
 *
 * @param domainId the DDS domain (0..232: its ports must stay below 65536)
 * @param networkInterface interface name or address to bind; empty = first up non-loopback IPv4 interface
 * @param peers addresses to send SPDP to on every participant index's well-known port (the multicast-free option;
 *     on a loopback interface 127.0.0.1 is always a peer)
 * @param maxParticipantIndex the highest participant index probed, ours and the peers' (Cyclone's
 *     MaxAutoParticipantIndex)
 * @param spdpPeriodNs how often the SPDP announcement is sent
 * @param leaseDurationNs the lease announced: others drop this participant after it without an announcement
 * @param userData the USER_DATA QoS announced (ddsperf recognises its peers by it)
 * @param entityName the participant's name, announced as ENTITY_NAME
 */
public record RtpsOptions(int domainId, String networkInterface, List<String> peers, int maxParticipantIndex,
    long spdpPeriodNs, long leaseDurationNs, byte[] userData, String entityName)
{
    public RtpsOptions
    {
        if (domainId < 0 || domainId > 232)
        {
            throw new IllegalArgumentException("RTPS domain id " + domainId + " outside 0..232");
        }
        if (maxParticipantIndex < 0 || maxParticipantIndex > 119)
        {
            throw new IllegalArgumentException("RTPS maxParticipantIndex " + maxParticipantIndex + " outside 0..119");
        }
        peers = List.copyOf(peers);
        userData = userData.clone();
    }

    /** Defaults: automatic interface, no extra peers, indices 0..9, SPDP every second, 10 s lease. */
    public static RtpsOptions defaults(final int domainId)
    {
        return new RtpsOptions(domainId, "", List.of(), 9, 1_000_000_000L, 10_000_000_000L, new byte[0], "sirocco");
    }

    public RtpsOptions withInterface(final String name)
    {
        return new RtpsOptions(domainId, name, peers, maxParticipantIndex, spdpPeriodNs, leaseDurationNs, userData,
            entityName);
    }

    public RtpsOptions withPeers(final List<String> addresses)
    {
        return new RtpsOptions(domainId, networkInterface, addresses.stream().map(String::strip)
            .filter(a -> !a.isEmpty()).toList(), maxParticipantIndex, spdpPeriodNs, leaseDurationNs, userData,
            entityName);
    }

    public RtpsOptions withUserData(final byte[] data)
    {
        return new RtpsOptions(domainId, networkInterface, peers, maxParticipantIndex, spdpPeriodNs, leaseDurationNs,
            data, entityName);
    }
}
