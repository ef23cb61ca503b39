package io.sirocco.pubsub.rtps.discovery;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A foreign (or Sirocco) participant as its SPDP announcement described it.
 *
 * @param prefix its GuidPrefix
 * @param vendorId the vendor id of its header (Cyclone DDS: 0x0110)
 * @param protocolMinor the RTPS minor version it announced
 * @param builtinEndpoints its BuiltinEndpointSet
 * @param metatrafficUnicast where its built-in endpoints listen
 * @param defaultUnicast where its user endpoints listen
 * @param leaseDurationNs how long it stays alive without another announcement
 * @param userData its USER_DATA QoS (empty when absent)
 */
public record DiscoveredParticipant(GuidPrefix prefix, int vendorId, int protocolMinor, int builtinEndpoints,
    List<InetSocketAddress> metatrafficUnicast, List<InetSocketAddress> defaultUnicast, long leaseDurationNs,
    byte[] userData)
{
    /** The USER_DATA as text (ddsperf puts {@code DDSPerf:<has reader>:<pid>:<host>} there). */
    public String userDataText()
    {
        return new String(userData, StandardCharsets.UTF_8);
    }

    @Override
    public String toString()
    {
        return "participant " + prefix + " vendor " + String.format("%04x", vendorId) + " user_data '"
            + userDataText() + "' metatraffic " + metatrafficUnicast + " lease " + leaseDurationNs / 1_000_000 + " ms";
    }
}
