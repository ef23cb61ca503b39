package io.sirocco.examples.cli;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.collections.LongArrayList;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.ParticipantListener;
import io.sirocco.pubsub.rtps.wire.RtpsTime;

/**
 * {@code sirocco ping --rtps} and {@code sirocco pong --rtps}: ddsperf's ping/pong over DDSI-RTPS, with its topic
 * names (DDSPerfRPingKS, DDSPerfRPongKS), its type (KeyedSeq), its USER_DATA convention and its per-participant pong
 * partitions, so that an unmodified Cyclone DDS {@code ddsperf pong} / {@code ddsperf ping} is the other side. The
 * interface and peers come from {@code sirocco.dds.interface} and {@code sirocco.dds.peers}.
 *
 * <p>Threads: the main thread pings and waits; pongs and pings arrive on the RTPS agent's thread.
 */
final class RtpsPerf
{
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;
    private static final String PING = "DDSPerfRPingKS";
    private static final String PONG = "DDSPerfRPongKS";

    final RtpsParticipant participant;
    final Map<GuidPrefix, DiscoveredParticipant> peers = new ConcurrentHashMap<>();

    private RtpsPerf(final int domain) throws Exception
    {
        this(domain, false);
    }

    /** A participant ddsperf recognises as a peer; {@code hasDataReader}: it subscribes to ddsperf's data topic. */
    RtpsPerf(final int domain, final boolean hasDataReader) throws Exception
    {
        final SiroccoConfig config = SiroccoConfig.fromEnvironment();
        final String userData = "DDSPerf:" + (hasDataReader ? 1 : 0) + ":" + ProcessHandle.current().pid() + ":"
            + InetAddress.getLocalHost().getHostName();
        RtpsOptions options = RtpsOptions.defaults(domain).withInterface(config.networkInterface())
            .withUserData(userData.getBytes(StandardCharsets.US_ASCII));
        if (!config.peers().isBlank())
        {
            // sirocco.dds.peers names host:port pairs for SST; RTPS probes the well-known ports of each host
            options = options.withPeers(Arrays.stream(config.peers().split(","))
                .map(peer -> peer.indexOf(':') == peer.lastIndexOf(':') && peer.indexOf(':') > 0
                    ? peer.substring(0, peer.indexOf(':')) : peer)
                .toList());
        }
        this.participant = RtpsParticipant.start(options);
    }

    /** ddsperf's partition for the pong writers answering a participant: its GUID in four hex groups. */
    static String partition(final GuidPrefix prefix)
    {
        final String hex = HexFormat.of().formatHex(prefix.guid(EntityIds.PARTICIPANT));
        return hex.substring(0, 8) + "_" + hex.substring(8, 16) + "_" + hex.substring(16, 24) + "_"
            + hex.substring(24);
    }

    /** Pings for {@code warmup + seconds} and prints the one-way latency (RTT/2) of the last {@code seconds}. */
    static int ping(final int domain, final int size, final int warmup, final int seconds) throws Exception
    {
        final RtpsPerf perf = new RtpsPerf(domain);
        try (RtpsParticipant p = perf.participant)
        {
            final BlockingQueue<Long> pongs = new ArrayBlockingQueue<>(1024);
            perf.announcePingPong(null);
            final RtpsUserWriter ping = p.userWriter(PING, TYPE, true, List.of());
            p.userReader(PONG, TYPE, true, List.of(partition(p.prefix())), (context, data) ->
                pongs.offer(KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength())));
            final ByteBuffer sample = ByteBuffer.allocateDirect(KeyedSeqCodec.FIXED_SIZE + Math.max(0, size - 12));
            final byte[] keyHash = new byte[16];
            KeyedSeqCodec.keyHash(0, keyHash);
            final int length = KeyedSeqCodec.encode(sample, 0, KeyedSeqCodec.XCDR1_LE, 0, 0, Math.max(0, size - 12));
            int seq = 0;
            final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Long pong = null;
            while (pong == null || pong != seq)
            {
                if (System.nanoTime() - giveUp > 0)
                {
                    System.err.println("ping --rtps: no pong answered within 60 s on domain " + domain
                        + "; start 'ddsperf -i " + domain + " pong' or 'sirocco pong --rtps'");
                    return 4;
                }
                sample.putInt(4, Integer.reverseBytes(++seq));
                ping.write(sample, 0, length, keyHash);
                pong = pongs.poll(1, TimeUnit.SECONDS);
            }
            System.out.printf("ping --rtps: matched a pong (%d RTPS participants known), size %d B%n",
                p.participants().size(), length - 4);
            final long measureFrom = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup);
            final long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
            final LongArrayList rtt = new LongArrayList();
            for (long now = System.nanoTime(); now - end < 0; now = System.nanoTime())
            {
                sample.putInt(4, Integer.reverseBytes(++seq));
                ping.write(sample, 0, length, keyHash);
                do
                {
                    pong = pongs.poll(10, TimeUnit.SECONDS);
                    if (pong == null)
                    {
                        System.err.println("ping --rtps: no pong of ping " + seq + " within 10 s; pong gone?");
                        return 1;
                    }
                }
                while (pong != seq);
                if (now - measureFrom >= 0)
                {
                    rtt.addLong(System.nanoTime() - now);
                }
            }
            report(rtt);
            return 0;
        }
    }

    private static void report(final LongArrayList rtt)
    {
        final long[] sorted = rtt.toLongArray();
        Arrays.sort(sorted);
        final int n = sorted.length;
        if (n == 0)
        {
            System.out.println("ping --rtps: no round trip measured");
            return;
        }
        System.out.printf("ping --rtps: %d round trips; one-way latency (RTT/2) min %.1f us, 50%% %.1f us, "
            + "90%% %.1f us, 99%% %.1f us, max %.1f us%n", n, sorted[0] / 2e3, sorted[n / 2] / 2e3,
            sorted[n * 9 / 10] / 2e3, sorted[n * 99 / 100] / 2e3, sorted[n - 1] / 2e3);
    }

    /** Answers every ping for {@code seconds}, then prints how many it answered. */
    static int pong(final int domain, final int seconds) throws Exception
    {
        final RtpsPerf perf = new RtpsPerf(domain);
        try (RtpsParticipant p = perf.participant)
        {
            final Map<GuidPrefix, RtpsUserWriter> writers = new ConcurrentHashMap<>();
            perf.announcePingPong(writers);
            final AtomicLong answered = new AtomicLong();
            final byte[] keyHash = new byte[16];
            p.userReader(PING, TYPE, true, List.of(), (context, data) ->
            {
                final RtpsUserWriter pong = writers.get(
                    new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow()));
                final long keyval = KeyedSeqCodec.keyval(data.buffer(), data.payloadOffset(), data.payloadLength());
                if (pong != null && keyval >= 0)
                {
                    KeyedSeqCodec.keyHash((int) keyval, keyHash);
                    // ddsperf marks an answer to a ping by the lowest nanosecond bit of its source timestamp
                    final long stamp = RtpsTime.fromNanos(RtpsTime.toNanos(context.timestamp()) | 1);
                    pong.write(data.buffer(), data.payloadOffset(), data.payloadLength(), keyHash, stamp);
                    answered.incrementAndGet();
                }
            });
            System.out.printf("pong --rtps: answering pings on domain %d for %d s%n", domain, seconds);
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds)); // the run's length is the only thing waited for
            System.out.printf("pong --rtps: answered %d pings from %d participants%n", answered.get(),
                perf.peers.size());
            return 0;
        }
    }

    /**
     * The endpoints ddsperf expects of a peer: a ping writer and reader, a pong reader in our partition, and a pong
     * writer in each peer's partition (made as peers appear; kept in {@code pongWriters} when given).
     */
    void announcePingPong(final Map<GuidPrefix, RtpsUserWriter> pongWriters)
    {
        if (pongWriters == null)
        {
            participant.createReader(PING, TYPE, true, List.of());
        }
        else
        {
            participant.createWriter(PING, TYPE, true, List.of());
        }
        participant.createReader(PONG, TYPE, true, List.of(partition(participant.prefix())));
        participant.addListener(new ParticipantListener()
        {
            @Override
            public void onDiscovered(final DiscoveredParticipant peer)
            {
                peers.put(peer.prefix(), peer);
                final List<String> theirs = List.of(partition(peer.prefix()));
                if (pongWriters == null)
                {
                    participant.createWriter(PONG, TYPE, true, theirs);
                }
                else
                {
                    pongWriters.put(peer.prefix(), participant.userWriter(PONG, TYPE, true, theirs));
                }
            }

            @Override
            public void onLost(final DiscoveredParticipant peer, final String why)
            {
                peers.remove(peer.prefix());
                if (pongWriters != null)
                {
                    pongWriters.remove(peer.prefix());
                }
            }
        });
    }
}
