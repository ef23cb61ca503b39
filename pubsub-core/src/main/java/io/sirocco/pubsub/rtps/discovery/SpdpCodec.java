package io.sirocco.pubsub.rtps.discovery;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.rtps.wire.ParameterId;
import io.sirocco.pubsub.rtps.wire.ParameterListReader;
import io.sirocco.pubsub.rtps.wire.ParameterListWriter;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;

/**
 * SPDPdiscoveredParticipantData (DDSI-RTPS 2.5, 9.6.2.2) as a PL_CDR payload: what Sirocco writes, and what it
 * reads from any vendor. Reading tolerates both byte orders, skips parameters it does not know (vendor-specific or
 * not needed yet) and locators of kinds other than UDPv4/UDPv6. Cold path: allocates. Stateless.
 */
public final class SpdpCodec
{
    /** LOCATOR_KIND_UDPv4 and UDPv6. */
    public static final int LOCATOR_UDP4 = 1;
    public static final int LOCATOR_UDP6 = 2;
    private static final long DEFAULT_LEASE_NS = 100_000_000_000L;

    private SpdpCodec()
    {
    }

    /** Writes {@code p}'s data as a serialized payload at {@code offset}; returns the offset past it. */
    public static int encode(final LocalParticipant p, final ByteBuffer out, final int offset)
    {
        final ParameterListWriter w = new ParameterListWriter(out, offset).encapsulationPlCdrLe();
        w.octets(ParameterId.PROTOCOL_VERSION,
            new byte[] {RtpsMessageWriter.VERSION_MAJOR, RtpsMessageWriter.VERSION_MINOR});
        w.octets(ParameterId.VENDOR_ID,
            new byte[] {(byte) (RtpsMessageWriter.VENDOR_ID >>> 8), (byte) RtpsMessageWriter.VENDOR_ID});
        w.octets(ParameterId.PARTICIPANT_GUID, p.prefix().guid(EntityIds.PARTICIPANT));
        w.int32(ParameterId.BUILTIN_ENDPOINT_SET, p.builtinEndpoints());
        w.int32(ParameterId.DOMAIN_ID, p.domainId());
        locator(w, ParameterId.METATRAFFIC_UNICAST_LOCATOR, p.metatrafficUnicast());
        locator(w, ParameterId.DEFAULT_UNICAST_LOCATOR, p.defaultUnicast());
        w.duration(ParameterId.PARTICIPANT_LEASE_DURATION, p.leaseDurationNs());
        if (p.userData().length > 0)
        {
            w.octetSequence(ParameterId.USER_DATA, p.userData());
        }
        if (!p.entityName().isEmpty())
        {
            w.string(ParameterId.ENTITY_NAME, p.entityName());
        }
        return w.finish();
    }

    private static void locator(final ParameterListWriter w, final int pid, final InetSocketAddress address)
    {
        final byte[] ip = address.getAddress().getAddress();
        w.locator(pid, ip.length == 4 ? LOCATOR_UDP4 : LOCATOR_UDP6, address.getPort(), ip);
    }

    /**
     * Reads a participant's data from the serialized payload {@code [offset, offset + length)}.
     *
     * @param headerVendorId the vendor id of the message header, used when the data has none
     * @return the participant, or null when the payload is malformed or has no GUID
     */
    public static DiscoveredParticipant decode(final ByteBuffer in, final int offset, final int length,
        final int headerVendorId)
    {
        if (length < 8)
        {
            return null;
        }
        final int representation = ((in.get(offset) & 0xff) << 8) | (in.get(offset + 1) & 0xff);
        if (representation != 0x0002 && representation != 0x0003)
        {
            return null;
        }
        final ParameterListReader r = new ParameterListReader().wrap(in, offset + 4, offset + length,
            representation == 0x0003);
        final Fields f = new Fields(headerVendorId);
        for (int pid = r.next(); pid != ParameterListReader.END; pid = r.next())
        {
            if (pid == ParameterListReader.MALFORMED || !f.read(r, pid & 0x3fff))
            {
                return null;
            }
        }
        return f.prefix == null ? null : new DiscoveredParticipant(f.prefix, f.vendorId, f.protocolMinor,
            f.builtinEndpoints, List.copyOf(f.metatraffic), List.copyOf(f.defaults), f.leaseNs, f.userData);
    }

    /** The fields read so far; one per decode. */
    private static final class Fields
    {
        GuidPrefix prefix;
        int vendorId;
        int protocolMinor;
        int builtinEndpoints;
        long leaseNs = DEFAULT_LEASE_NS;
        byte[] userData = new byte[0];
        final List<InetSocketAddress> metatraffic = new ArrayList<>();
        final List<InetSocketAddress> defaults = new ArrayList<>();

        Fields(final int vendorId)
        {
            this.vendorId = vendorId;
        }

        /** Reads one parameter; false when its value is malformed. */
        boolean read(final ParameterListReader r, final int pid)
        {
            final int at = r.valueOffset();
            final int length = r.valueLength();
            final ByteBuffer b = r.buffer();
            switch (pid)
            {
                case ParameterId.PARTICIPANT_GUID -> {
                    if (length < 16)
                    {
                        return false;
                    }
                    prefix = new GuidPrefix(r.int64Be(at), r.int32Be(at + 8));
                }
                case ParameterId.VENDOR_ID -> vendorId = length < 2 ? vendorId
                    : ((b.get(at) & 0xff) << 8) | (b.get(at + 1) & 0xff);
                case ParameterId.PROTOCOL_VERSION -> protocolMinor = length < 2 ? 0 : b.get(at + 1) & 0xff;
                case ParameterId.BUILTIN_ENDPOINT_SET -> builtinEndpoints = length < 4 ? 0 : r.int32(at);
                case ParameterId.PARTICIPANT_LEASE_DURATION -> {
                    if (length >= 8)
                    {
                        leaseNs = r.int32(at) * 1_000_000_000L + ((r.int32(at + 4) & 0xffff_ffffL) * 1_000_000_000L >>> 32);
                    }
                }
                case ParameterId.METATRAFFIC_UNICAST_LOCATOR -> addLocator(r, at, length, metatraffic);
                case ParameterId.DEFAULT_UNICAST_LOCATOR -> addLocator(r, at, length, defaults);
                case ParameterId.USER_DATA -> {
                    final int n = length < 4 ? -1 : r.int32(at);
                    if (n < 0 || n > length - 4)
                    {
                        return false;
                    }
                    userData = new byte[n];
                    b.get(at + 4, userData);
                }
                default -> {
                    // not needed for discovery
                }
            }
            return true;
        }

        private static void addLocator(final ParameterListReader r, final int at, final int length,
            final List<InetSocketAddress> into)
        {
            if (length < 24)
            {
                return;
            }
            final int kind = r.int32(at);
            final int port = r.int32(at + 4);
            if ((kind != LOCATOR_UDP4 && kind != LOCATOR_UDP6) || port <= 0 || port > 65_535)
            {
                return;
            }
            final byte[] ip = new byte[kind == LOCATOR_UDP4 ? 4 : 16];
            r.buffer().get(at + 8 + 16 - ip.length, ip);
            try
            {
                into.add(new InetSocketAddress(InetAddress.getByAddress(ip), port));
            }
            catch (final UnknownHostException ex)
            {
                // cannot happen for 4 or 16 octets
            }
        }
    }
}
