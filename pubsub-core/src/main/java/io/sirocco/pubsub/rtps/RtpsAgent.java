package io.sirocco.pubsub.rtps;

import java.net.InetSocketAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.agrona.concurrent.Agent;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.discovery.SpdpAnnouncer;
import io.sirocco.transport.udp.UdpChannel;
import io.sirocco.transport.udp.UdpReceiveAgent;

/**
 * The duty cycle of one RTPS participant: receive (and interpret) what the sockets hold, announce by SPDP once a
 * period, announce new local endpoints by SEDP and heartbeat the SEDP writers, heartbeat the user writers, and
 * expire leases. One agent per participant, so its discovery state needs no locks.
 */
final class RtpsAgent implements Agent
{
    private final UdpReceiveAgent receiver;
    private final SpdpAnnouncer announcer;
    private final UdpChannel sendSocket;
    private final List<InetSocketAddress> wellKnownTargets;
    private final ParticipantTable participants;
    private final long periodNs;
    private final LocalEndpoints endpoints;
    private final UserWriters writers;
    private long nextAnnounceNs = System.nanoTime();

    RtpsAgent(final UdpReceiveAgent receiver, final SpdpAnnouncer announcer, final UdpChannel sendSocket,
        final List<InetSocketAddress> wellKnownTargets, final ParticipantTable participants, final long periodNs,
        final LocalEndpoints endpoints, final UserWriters writers)
    {
        this.writers = writers;
        this.endpoints = endpoints;
        this.receiver = receiver;
        this.announcer = announcer;
        this.sendSocket = sendSocket;
        this.wellKnownTargets = List.copyOf(wellKnownTargets);
        this.participants = participants;
        this.periodNs = periodNs;
    }

    @Override
    public int doWork() throws Exception
    {
        int work = receiver.doWork();
        work += endpoints.drain();
        final long nowNs = System.nanoTime();
        work += writers.heartbeat(nowNs);
        if (nowNs - nextAnnounceNs >= 0)
        {
            nextAnnounceNs = nowNs + periodNs;
            announcer.announce(sendSocket, targets());
            participants.expire(nowNs);
            endpoints.heartbeat();
            work++;
        }
        return work;
    }

    /** The well-known ports of the peers, and every found participant's metatraffic locators. */
    private Set<InetSocketAddress> targets()
    {
        final Set<InetSocketAddress> targets = new LinkedHashSet<>(wellKnownTargets);
        for (final DiscoveredParticipant p : participants.participants())
        {
            targets.addAll(p.metatrafficUnicast());
        }
        return targets;
    }

    @Override
    public String roleName()
    {
        return receiver.roleName();
    }
}
