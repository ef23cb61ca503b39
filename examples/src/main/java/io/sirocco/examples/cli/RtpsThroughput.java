package io.sirocco.examples.cli;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.config.ExitCodes;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.wire.RtpsTime;

/**
 * {@code sirocco pub --rtps} and {@code sirocco sub --rtps}: ddsperf's throughput test over DDSI-RTPS, on its topic
 * {@code DDSPerfRDataKS} (type KeyedSeq, key 0, {@code seq} counting from 0), RELIABLE KEEP_ALL unless best-effort,
 * with the ping/pong endpoints every ddsperf peer expects, so that an unmodified {@code ddsperf sub} or
 * {@code ddsperf pub} is the other side. The sub counts, per remote writer, what it received and what it lost: the
 * seqs skipped in the stream the reader delivers, which a reliable reader delivers in sequence order (a resent
 * sample takes its place), so a skip is a sample the writer declared gone.
 *
 * <p>Threads: the main thread publishes, or waits and prints; samples arrive on the RTPS agent's thread.
 */
final class RtpsThroughput
{
    static final String DATA = "DDSPerfRDataKS";
    /**
     * The largest sample published: samples above 1344 B go as DATA_FRAGs, and the writer's history keeps up to 256
     * of them.
     */
    static final int MAX_SIZE = 1 << 20;
    private static final String PING = "DDSPerfRPingKS";
    private static final int HISTORY = 256;

    private RtpsThroughput()
    {
    }

    /**
     * Publishes KeyedSeq samples of {@code size} bytes (ddsperf's size: 12 fixed bytes and the baggage) for
     * {@code seconds}, as fast as flow control allows or at {@code rate} per second, once a reader matched; then
     * waits until every reliable reader acknowledged everything and prints what it wrote.
     */
    static int pub(final int domain, final int size, final int seconds, final long rate, final boolean reliable)
        throws Exception
    {
        if (size > MAX_SIZE)
        {
            System.err.println("pub --rtps: size " + size + " B is above the largest sample, " + MAX_SIZE + " B");
            return 2;
        }
        final RtpsPerf perf = new RtpsPerf(domain, false);
        try (RtpsParticipant p = perf.participant)
        {
            perf.announcePingPong(null);
            p.createWriter(PING, KeyedSeqCodec.TYPE_NAME, true, List.of());
            final RtpsUserWriter writer = p.userWriter(DATA, KeyedSeqCodec.TYPE_NAME, reliable, List.of(), HISTORY,
                true, TimeUnit.SECONDS.toNanos(1));
            if (!writer.awaitMatched(1, TimeUnit.SECONDS.toNanos(60)))
            {
                System.err.println("pub --rtps: no reader of " + DATA + " matched within 60 s on domain " + domain
                    + "; start 'ddsperf -i " + domain + " sub' or 'sirocco sub --rtps'");
                return 4;
            }
            final ByteBuffer sample = ByteBuffer.allocateDirect(KeyedSeqCodec.FIXED_SIZE + Math.max(0, size - 12));
            final int length = KeyedSeqCodec.encode(sample, 0, KeyedSeqCodec.XCDR1_LE, 0, 0, Math.max(0, size - 12));
            final byte[] keyHash = new byte[16];
            KeyedSeqCodec.keyHash(0, keyHash);
            final long startNs = System.nanoTime();
            final long written = publish(writer, sample, length, keyHash, startNs, seconds, rate);
            final double elapsed = (System.nanoTime() - startNs) / 1e9;
            final boolean acked = writer.awaitAcknowledged(TimeUnit.SECONDS.toNanos(30));
            System.out.printf(Locale.ROOT, "pub --rtps: wrote %d samples of %d B in %.1f s, %.2f kS/s %.2f Mb/s, "
                + "%d resent, %s%n", written, length - 4, elapsed, written / elapsed / 1e3,
                written * (length - 4) * 8 / elapsed / 1e6, writer.resent(),
                acked ? "all acknowledged" : "NOT all acknowledged within 30 s");
            return acked ? 0 : 1;
        }
    }

    private static long publish(final RtpsUserWriter writer, final ByteBuffer sample, final int length,
        final byte[] keyHash, final long startNs, final int seconds, final long rate) throws InterruptedException
    {
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(seconds);
        final long periodNs = rate > 0 ? 1_000_000_000L / rate : 0;
        int seq = 0;
        for (long now = System.nanoTime(); now - endNs < 0; now = System.nanoTime())
        {
            if (periodNs > 0 && now - (startNs + seq * periodNs) < 0)
            {
                LockSupport.parkNanos(Math.min(startNs + seq * periodNs - now, 1_000_000));
                continue;
            }
            sample.putInt(4, Integer.reverseBytes(seq));
            // ddsperf answers a sample whose timestamp's lowest nanosecond bit is set with a pong: keep it clear
            final long stamp = RtpsTime.fromNanos(System.currentTimeMillis() * 1_000_000L & ~1L);
            if (writer.write(sample, 0, length, keyHash, stamp) >= 0)
            {
                seq++;
            }
        }
        return seq;
    }

    /**
     * Subscribes to ddsperf's data topic until the writers that sent data are gone, or for {@code seconds}; prints
     * the totals every second and at the end.
     */
    static int sub(final int domain, final int seconds, final boolean reliable) throws Exception
    {
        final RtpsPerf perf = new RtpsPerf(domain, true);
        try (RtpsParticipant p = perf.participant)
        {
            perf.announcePingPong(null);
            p.createWriter(PING, KeyedSeqCodec.TYPE_NAME, true, List.of());
            final Map<GuidPrefix, Source> sources = new ConcurrentHashMap<>();
            final AtomicLong bytes = new AtomicLong();
            p.userReader(DATA, KeyedSeqCodec.TYPE_NAME, reliable, List.of(), (context, data) ->
            {
                final long seq = KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength());
                if (seq >= 0)
                {
                    sources.computeIfAbsent(new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow()),
                        k -> new Source()).received(seq);
                    bytes.addAndGet(data.payloadLength() - 4);
                }
            });
            System.out.printf("sub --rtps: subscribed to %s on domain %d%n", DATA, domain);
            final long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long lastCount = 0;
            long lastBytes = 0;
            while (System.nanoTime() - endNs < 0)
            {
                TimeUnit.SECONDS.sleep(1); // the report's period
                final long count = total(sources, false);
                final long b = bytes.get();
                if (count != lastCount)
                {
                    System.out.printf(Locale.ROOT, "sub --rtps: total %d lost %d rate %.2f kS/s %.2f Mb/s%n", count,
                        total(sources, true), (count - lastCount) / 1e3, (b - lastBytes) * 8 / 1e6);
                }
                lastCount = count;
                lastBytes = b;
                if (!sources.isEmpty() && sources.keySet().stream().noneMatch(perf.peers::containsKey))
                {
                    break; // every writer that sent data is gone
                }
            }
            final long lost = total(sources, true);
            final long outOfOrder = sources.values().stream().mapToLong(s -> s.outOfOrder).sum();
            System.out.printf("sub --rtps: done: received %d lost %d out of order %d from %d writers%n",
                total(sources, false), lost, outOfOrder, sources.size());
            return reliable && lost + outOfOrder > 0 ? ExitCodes.SAMPLES_LOST : ExitCodes.OK;
        }
    }

    private static long total(final Map<GuidPrefix, Source> sources, final boolean lost)
    {
        long sum = 0;
        for (final Source s : sources.values())
        {
            sum += lost ? s.lost : s.count;
        }
        return sum;
    }

    /**
     * What one remote participant's writer delivered, in its order (a reliable reader delivers in sequence order, a
     * best-effort one in arrival order): a seq more than one above the last is preceded by lost ones; a seq not
     * above the last came out of order (possible only best-effort). Written by the RTPS agent only, read by the main
     * thread.
     */
    private static final class Source
    {
        volatile long count;
        volatile long lost;
        volatile long outOfOrder;
        private long last = -1;

        void received(final long seq)
        {
            count++;
            if (last >= 0 && seq <= last)
            {
                outOfOrder++;
                return;
            }
            if (last >= 0)
            {
                lost += seq - last - 1;
            }
            last = seq;
        }
    }
}
