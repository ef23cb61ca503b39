package io.sirocco.pubsub.rtps.discovery;

import java.net.InetSocketAddress;

/**
 * What this participant announces by SPDP.
 *
 * @param prefix its GuidPrefix
 * @param domainId its domain
 * @param metatrafficUnicast where its built-in endpoints listen
 * @param defaultUnicast where its user endpoints listen
 * @param leaseDurationNs how long others keep it without a new announcement
 * @param userData its USER_DATA (may be empty)
 * @param entityName its name (may be empty)
 * @param builtinEndpoints the BuiltinEndpointSet bits of the built-in endpoints it has
 */
public record LocalParticipant(GuidPrefix prefix, int domainId, InetSocketAddress metatrafficUnicast,
    InetSocketAddress defaultUnicast, long leaseDurationNs, byte[] userData, String entityName, int builtinEndpoints)
{
}
