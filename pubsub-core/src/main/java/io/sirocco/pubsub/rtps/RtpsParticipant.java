package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredEndpoint;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EndpointTable;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.discovery.LocalParticipant;
import io.sirocco.pubsub.rtps.discovery.ParticipantListener;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.discovery.RtpsPorts;
import io.sirocco.pubsub.rtps.discovery.SpdpAnnouncer;
import io.sirocco.pubsub.rtps.reliability.WriterHistory;
import io.sirocco.pubsub.rtps.wire.RtpsDecodeStats;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.udp.DatagramFault;
import io.sirocco.transport.udp.UdpChannel;
import io.sirocco.transport.udp.UdpInterface;
import io.sirocco.transport.udp.UdpReceiveAgent;

/**
 * One DDSI-RTPS participant: binds the well-known unicast ports of the first free participant index on the chosen
 * interface (and the SPDP multicast port when the interface can multicast), announces itself by SPDP to the peers'
 * well-known ports, the multicast group and every participant found, and keeps the table of foreign participants
 * with their leases; its SEDP readers learn the foreign participants' endpoints and its SEDP writers announce its
 * own. User data on those endpoints comes next.
 *
 * <p>Threads: one agent ({@code sirocco-rtps-d<domain>-p<index>}) does all receiving, announcing and expiry; the
 * accessors may be called from any thread; {@link #close()} stops the agent, then closes the sockets.
 */
public final class RtpsParticipant implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RtpsParticipant.class);
    private static final int BUILTIN_ENDPOINTS = EntityIds.SET_PARTICIPANT_ANNOUNCER
        | EntityIds.SET_PARTICIPANT_DETECTOR | EntityIds.SET_PUBLICATIONS_DETECTOR
        | EntityIds.SET_SUBSCRIPTIONS_DETECTOR | EntityIds.SET_PUBLICATIONS_ANNOUNCER
        | EntityIds.SET_SUBSCRIPTIONS_ANNOUNCER;

    private final GuidPrefix prefix = GuidPrefix.random(RtpsMessageWriter.VENDOR_ID);
    private final ParticipantTable participants;
    private final EndpointTable endpoints;
    private final List<UdpChannel> sockets = new ArrayList<>();
    private final int participantIndex;
    private final RtpsReceiveHandler handler;
    private final LocalEndpoints local;
    private final UserReaders userReaders;
    private final UserWriters userWriters = new UserWriters();
    private final UdpReceiveAgent receiver;
    private final AgentRunner runner;

    private RtpsParticipant(final RtpsOptions options) throws IOException
    {
        final int domain = options.domainId();
        final UdpInterface nif = UdpInterface.choose(options.networkInterface(), "RTPS domain " + domain);
        this.participants = new ParticipantTable(domain);
        this.endpoints = new EndpointTable(domain);
        this.participantIndex = bindIndex(options, nif);
        final UdpChannel metatraffic = sockets.get(0);
        final UdpChannel user = sockets.get(1);
        final List<InetSocketAddress> targets = wellKnownTargets(options, nif);
        if (nif.multicast())
        {
            final InetAddress group = InetAddress.getByName(RtpsPorts.DEFAULT_MULTICAST_GROUP);
            sockets.add(UdpChannel.multicast(group, RtpsPorts.spdpMulticast(domain), nif.nif()));
            targets.add(new InetSocketAddress(group, RtpsPorts.spdpMulticast(domain)));
        }
        final LocalParticipant self = new LocalParticipant(prefix, domain, metatraffic.localAddress(),
            user.localAddress(), options.leaseDurationNs(), options.userData(), options.entityName(),
            BUILTIN_ENDPOINTS);
        this.handler = new RtpsReceiveHandler(prefix, participants, domain);
        final SedpReader sedp = new SedpReader(prefix, metatraffic, participants, endpoints);
        handler.sedp(sedp);
        this.local = new LocalEndpoints(prefix, metatraffic);
        handler.localEndpoints(local);
        this.userReaders = new UserReaders(prefix, user, endpoints, participants);
        handler.userReaders(userReaders);
        handler.userWriters(userWriters);
        participants.addListener(new ParticipantListener()
        {
            @Override
            public void onDiscovered(final DiscoveredParticipant p)
            {
                local.participantDiscovered(p);
            }

            @Override
            public void onLost(final DiscoveredParticipant p, final String why)
            {
                sedp.participantLost(p.prefix());
                local.participantLost(p.prefix());
                userReaders.participantLost(p.prefix());
            }
        });
        final String role = "rtps-d" + domain + "-p" + participantIndex;
        this.receiver = new UdpReceiveAgent(role, handler, sockets.toArray(UdpChannel[]::new));
        final RtpsAgent agent = new RtpsAgent(receiver, new SpdpAnnouncer(self), metatraffic, targets, participants,
            options.spdpPeriodNs(), local, userWriters);
        LOG.info("RTPS domain {}: participant {} index {} on {} (metatraffic {}, user {}), SPDP to {}", domain, prefix,
            participantIndex, nif.address().getHostAddress(), metatraffic.localAddress(), user.localAddress(),
            targets.size() + " locators");
        this.runner = Agents.start(agent, new BackoffIdleStrategy(10, 5, 1_000, 1_000_000));
    }

    /** Starts a participant; its first SPDP announcement goes out at once. */
    public static RtpsParticipant start(final RtpsOptions options) throws IOException
    {
        return new RtpsParticipant(options);
    }

    /** Binds the SPDP and user unicast ports of the first index whose two ports are free. */
    private int bindIndex(final RtpsOptions options, final UdpInterface nif) throws IOException
    {
        for (int i = 0; i <= options.maxParticipantIndex(); i++)
        {
            UdpChannel meta = null;
            try
            {
                meta = UdpChannel.unicast(nif.address(), RtpsPorts.spdpUnicast(options.domainId(), i), nif.nif());
                final UdpChannel user = UdpChannel.unicast(nif.address(),
                    RtpsPorts.userUnicast(options.domainId(), i), nif.nif());
                sockets.add(meta);
                sockets.add(user);
                return i;
            }
            catch (final BindException taken)
            {
                if (meta != null)
                {
                    meta.close();
                }
            }
        }
        throw new BindException("RTPS domain " + options.domainId() + ": no free participant index in 0.."
            + options.maxParticipantIndex() + " on " + nif.address().getHostAddress());
    }

    private static List<InetSocketAddress> wellKnownTargets(final RtpsOptions options, final UdpInterface nif)
        throws IOException
    {
        final List<InetAddress> peers = new ArrayList<>();
        for (final String peer : options.peers())
        {
            peers.add(InetAddress.getByName(peer));
        }
        if (nif.nif().isLoopback() && !peers.contains(nif.address()))
        {
            peers.add(nif.address());
        }
        final List<InetSocketAddress> targets = new ArrayList<>();
        for (final InetAddress peer : peers)
        {
            for (int i = 0; i <= options.maxParticipantIndex(); i++)
            {
                targets.add(new InetSocketAddress(peer, RtpsPorts.spdpUnicast(options.domainId(), i)));
            }
        }
        return targets;
    }

    public GuidPrefix prefix()
    {
        return prefix;
    }

    public int participantIndex()
    {
        return participantIndex;
    }

    /** The foreign participants alive now. */
    public Collection<DiscoveredParticipant> participants()
    {
        return participants.participants();
    }

    /** The remote writers and readers SEDP announced so far. */
    public Collection<DiscoveredEndpoint> endpoints()
    {
        return endpoints.endpoints();
    }

    /**
     * A new writer of this participant on {@code topic}, keyed type {@code type}, in {@code partitions} (empty: the
     * default partition), announced by SEDP to every foreign participant. Any thread.
     */
    public LocalEndpoint createWriter(final String topic, final String type, final boolean reliable,
        final List<String> partitions)
    {
        return local.create(true, topic, type, reliable, partitions);
    }

    /** A new reader, as {@link #createWriter}. */
    public LocalEndpoint createReader(final String topic, final String type, final boolean reliable,
        final List<String> partitions)
    {
        return local.create(false, topic, type, reliable, partitions);
    }

    /**
     * A writer of serialized samples on {@code topic} (see {@link #createWriter}), sending from the user socket to
     * the readers SEDP matches, KEEP_LAST 1 (ddsperf's ping and pong): it never blocks, so it may write from a
     * {@link SampleListener}; one thread writes through it.
     */
    public RtpsUserWriter userWriter(final String topic, final String type, final boolean reliable,
        final List<String> partitions)
    {
        return userWriter(topic, type, reliable, partitions, 1, false, 0);
    }

    /**
     * As {@link #userWriter(String, String, boolean, List)} with a history of {@code depth} changes: KEEP_ALL when
     * {@code keepAll} (changes stay until every reliable reader acknowledged them, a write blocks up to
     * {@code maxBlockingNs} while the history is full; never from a {@link SampleListener}, which runs on the
     * thread that takes the acknowledgements), else KEEP_LAST {@code depth} (the oldest change makes room).
     */
    public RtpsUserWriter userWriter(final String topic, final String type, final boolean reliable,
        final List<String> partitions, final int depth, final boolean keepAll, final long maxBlockingNs)
    {
        final RtpsUserWriter w = new RtpsUserWriter(prefix, createWriter(topic, type, reliable, partitions),
            sockets.get(1), endpoints, participants, new WriterHistory(depth), keepAll, maxBlockingNs);
        userWriters.add(w);
        return w;
    }

    /** A reader on {@code topic} whose samples go to {@code listener} on the RTPS agent's thread. */
    public LocalEndpoint userReader(final String topic, final String type, final boolean reliable,
        final List<String> partitions, final SampleListener listener)
    {
        final LocalEndpoint e = createReader(topic, type, reliable, partitions);
        userReaders.add(e, listener);
        return e;
    }

    /** This participant's own endpoints. */
    public Collection<LocalEndpoint> localEndpoints()
    {
        return local.endpoints();
    }

    /** Called on the RTPS agent thread for each participant found or lost from now on. */
    public void addListener(final ParticipantListener listener)
    {
        participants.addListener(listener);
    }

    /** Counters of what was received: accepted datagrams, and malformed ones by reason. */
    public RtpsDecodeStats decodeStats()
    {
        return handler.stats();
    }

    /** Datagrams received on every socket. */
    public long datagramsReceived()
    {
        return receiver.received();
    }

    /** Datagrams whose handling threw (a bug: the reader rejects bad input without throwing). */
    public long handlerFailures()
    {
        return receiver.handlerFailures();
    }

    /**
     * Injects {@code fault} into every socket of this participant from now on, to test retransmission and loss
     * tolerance against real peers; {@link DatagramFault#NONE} ends it.
     */
    public void injectFault(final DatagramFault fault)
    {
        for (final UdpChannel s : sockets)
        {
            s.injectFault(fault);
        }
    }

    /** The unicast address of the SPDP (metatraffic) socket. */
    public InetSocketAddress metatrafficAddress()
    {
        return sockets.get(0).localAddress();
    }

    @Override
    public void close()
    {
        runner.close();
        for (final UdpChannel s : sockets)
        {
            try
            {
                s.close();
            }
            catch (final IOException ex)
            {
                LOG.debug("closing {}: {}", s.localAddress(), ex.toString());
            }
        }
    }
}
