package io.sirocco.examples.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import com.sun.management.ThreadMXBean;
import io.sirocco.examples.cli.config.ExitCodes;
import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.perf.LatencyReport;
import io.sirocco.examples.cli.perf.PerfSession;
import io.sirocco.transport.agent.Agents;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.core.status.DataAvailableStatus;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sirocco ping}: the latency half of ddsperf's ping/pong. Writes a {@code sirocco.perf.Sample} on the ping
 * topic (RELIABLE, KEEP_LAST 1); like ddsperf, the reader's DataAvailable listener takes pong's echo, records it and
 * writes the next ping (on the predicate thread: the perf commands turn {@code sirocco.dds.listener.inline} on), while the
 * main thread only watches. Reports one-way latency = RTT/2 per second and overall, and the bytes allocated per round
 * trip.
 * Exit codes ({@code ExitCodes}): 0 done, 1 failure, 4 no pong matched within 60 s, 6 this process was excluded from
 * the domain's group during the run.
 */
@Command(name = "ping", mixinStandardHelpOptions = true,
    description = "Round-trip latency against a pong (one-way = RTT/2), like ddsperf ping.")
public final class PingCommand implements Callable<Integer>
{
    @Option(names = "--size", defaultValue = "64", description = "payload bytes (default ${DEFAULT-VALUE})",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--seconds", defaultValue = "10", description = "measurement time (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int seconds;

    // 5 s, not 1: on a loaded host the JIT still compiles the hot path (CDR writer, FFM handles, the tcp row frame)
    // several seconds in, so a 1 s warm-up measured partly compiled code; ddsperf's figures are steady state too
    // (docs/benchmarks.md "Over tcp under load: warm-up and selector yields").
    @Option(names = "--warmup", defaultValue = "5",
        description = "seconds not measured first, for the JIT to compile the hot path (default ${DEFAULT-VALUE})",
        converter = OptionValues.NonNegative.class)
    int warmup;

    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--with-pong", description = "fork a pong process")
    boolean withPong;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Option(names = "--percentiles", paramLabel = "FILE", description = "write the one-way latency's HdrHistogram "
        + "percentile distribution (microseconds) to FILE, for plotting (bench/compare.sh)")
    Path percentiles;

    @Option(names = "--rtps", description = "speak DDSI-RTPS with ddsperf's topics and types (Cyclone's ddsperf "
        + "is the other side); interface and peers from sirocco.dds.interface / sirocco.dds.peers")
    boolean rtps;

    @Override
    public Integer call() throws Exception
    {
        if (rtps)
        {
            return RtpsPerf.ping(dds.domain, size, warmup, seconds);
        }
        try (PerfSession session = dds.session())
        {
            final Topic<sirocco.perf.Sample> ping = session.topic(PerfSession.PING_TOPIC);
            final Topic<sirocco.perf.Sample> pong = session.topic(PerfSession.PONG_TOPIC);
            final DataWriter<sirocco.perf.Sample> writer = session.publisher().createDataWriter(ping,
                session.writerQos(true, false));
            final EchoListener echoes = new EchoListener(writer);
            final long readerCreatedNs = System.nanoTime();
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(pong,
                session.readerQos(true, false), echoes, List.of(DataAvailableStatus.class));
            PerfSession.Child child = null;
            try
            {
                if (withPong)
                {
                    child = startPong();
                }
                final long matchStart = System.nanoTime();
                if (!PerfSession.await(() -> writer.getPublicationMatchedStatus().getCurrentCount() > 0 &&
                    reader.getSubscriptionMatchedStatus().getCurrentCount() > 0, 60_000))
                {
                    System.err.println("ping: no pong matched within 60 s on domain " + dds.domain + " (" + dds.transport +
                        "); start 'sirocco pong' or use --with-pong");
                    return ExitCodes.NO_PARTNER;
                }
                System.out.printf("ping: matched a pong %.1f ms after createDataReader (%.1f ms after waiting " +
                    "began; transport %s, size %d B)%n", (System.nanoTime() - readerCreatedNs) / 1e6,
                    (System.nanoTime() - matchStart) / 1e6, dds.transport, size);
                final int code = run(writer, echoes);
                return code == ExitCodes.OK ? session.exitCode("ping", 0) : code;
            }
            finally
            {
                if (child != null)
                {
                    writer.close();
                    if (!child.waitFor(15_000))
                    {
                        child.close();
                    }
                }
            }
        }
    }

    /**
     * Drives the measurement from the main thread: arms the listener, sends the first ping, then only watches (the
     * listener sends every further ping), re-sending a ping while none came back during the warm-up (a first sample
     * can precede the pong's match of this writer) and giving up after 10 s without an echo.
     */
    private int run(final DataWriter<sirocco.perf.Sample> writer, final EchoListener echoes) throws Exception
    {
        final sirocco.perf.Sample kick = new sirocco.perf.Sample(0, 0, 0, new byte[size]);
        final long startNs = System.nanoTime();
        final long measureFromNs = startNs + TimeUnit.SECONDS.toNanos(warmup);
        final long endNs = measureFromNs + TimeUnit.SECONDS.toNanos(seconds);
        echoes.arm(size, measureFromNs, endNs, new LatencyReport(System.out));
        long lastTrips = -1;
        long lastProgressNs = startNs;
        long lastKickNs = 0;
        while (!echoes.done())
        {
            final long now = System.nanoTime();
            final long trips = echoes.roundTrips();
            if (trips != lastTrips)
            {
                lastTrips = trips;
                lastProgressNs = now;
            }
            if (echoes.failure() != null)
            {
                System.err.println("ping: writing from the listener failed: " + echoes.failure());
                return 1;
            }
            if (trips == 0 && now - lastKickNs > TimeUnit.SECONDS.toNanos(1))
            {
                echoes.kick(kick);
                lastKickNs = now;
            }
            else if (now - lastProgressNs > TimeUnit.SECONDS.toNanos(10))
            {
                System.err.println("ping: no echo within 10 s after " + trips + " round trips; pong gone?");
                return 1;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        final LatencyReport report = echoes.report();
        report.printOverall();
        if (percentiles != null)
        {
            report.writePercentiles(percentiles);
        }
        final long allocTrips = echoes.measuredTrips();
        if (allocTrips > 0)
        {
            System.out.printf("allocation: %.1f bytes per round trip over %d round trips (every thread of this " +
                "process%s; ThreadMXBean.getTotalThreadAllocatedBytes)%n", echoes.allocatedBytes() /
                (double)allocTrips, allocTrips, "local".equals(dds.transport) ? ", pong included" : ", pong not included");
            System.out.printf("allocation: %.1f bytes per round trip on the listener's thread %s (it receives, " +
                "delivers, takes and writes the next ping)%n", echoes.listenerAllocatedBytes() / (double)allocTrips,
                echoes.listenerThread());
        }
        if (json)
        {
            System.out.println(report.json(dds.transport, size));
        }
        return 0;
    }

    /**
     * The ping loop, ddsperf-style: on every echo (the reader's DataAvailable listener, which runs on the predicate
     * thread when {@code sirocco.dds.listener.inline} is on) it records the round trip and writes the next ping. Its state
     * is confined to the listener's thread except the volatile fields read by the main thread; {@link #kick} (main
     * thread, before the first echo only) replaces the outstanding sequence number.
     */
    /**
     * Starts the pong: a child process, or over the in-process transport (which reaches only this JVM) a thread here.
     *
     * @return the child process, or null when the pong runs on a thread.
     */
    private PerfSession.Child startPong() throws IOException
    {
        if (!"local".equals(dds.transport))
        {
            return new PerfSession.Child(dds.partnerArgs("pong", "--seconds", String.valueOf(seconds + warmup + 90)));
        }
        final PongCommand pongCommand = new PongCommand();
        pongCommand.dds = dds;
        pongCommand.seconds = seconds + warmup + 90;
        Agents.threadFactory("pong").newThread(() ->
        {
            try
            {
                pongCommand.call();
            }
            catch (final Exception ex)
            {
                System.err.println("pong thread failed: " + ex);
            }
        }).start();
        return null;
    }

    private static final class EchoListener extends DataReaderAdapter<sirocco.perf.Sample>
    {
        private final DataWriter<sirocco.perf.Sample> writer;
        private final ThreadMXBean threads =
            (ThreadMXBean)ManagementFactory.getThreadMXBean();
        private sirocco.perf.Sample sample;
        private LatencyReport report;
        private long measureFromNs;
        private long endNs;
        private long nextReportNs;
        private int second;
        private int seconds;
        private long allocStart = -1;
        private volatile long allocated;
        private long ownAllocStart;
        private volatile long ownAllocated;
        private volatile String listenerThread = "?";
        private volatile long measured;
        private volatile long outstanding;
        private volatile long trips;
        private volatile boolean armed;
        private volatile boolean done;
        private volatile Exception failure;

        EchoListener(final DataWriter<sirocco.perf.Sample> writer)
        {
            this.writer = writer;
        }

        void arm(final int size, final long measureFrom, final long end, final LatencyReport latencyReport)
        {
            sample = new sirocco.perf.Sample(0, 0, 0, new byte[size]);
            measureFromNs = measureFrom;
            endNs = end;
            seconds = (int)TimeUnit.NANOSECONDS.toSeconds(end - measureFrom);
            nextReportNs = measureFrom + TimeUnit.SECONDS.toNanos(1);
            report = latencyReport;
            report.printHeader();
            armed = true;
        }

        /** Main thread: (re)starts the exchange with a new sequence number (before the first echo only). */
        synchronized void kick(final sirocco.perf.Sample first) throws Exception
        {
            first.seq = outstanding + 1_000_000;
            first.timestampNs = System.nanoTime();
            outstanding = first.seq;
            writer.write(first);
        }

        @Override
        public void onDataAvailable(final DataAvailableEvent<sirocco.perf.Sample> event)
        {
            if (!armed || done)
            {
                return;
            }
            long rtt = -1;
            final long expected = outstanding;
            try (Sample.Iterator<sirocco.perf.Sample> it = event.getSource().take())
            {
                while (it.hasNext())
                {
                    final sirocco.perf.Sample echo = it.next().getData();
                    if (echo != null && echo.seq == expected)
                    {
                        rtt = System.nanoTime() - echo.timestampNs;
                    }
                }
            }
            catch (final IOException ex)
            {
                failure = ex;
                return;
            }
            if (rtt >= 0)
            {
                echoed(rtt);
            }
        }

        private void echoed(final long rtt)
        {
            final long now = System.nanoTime();
            trips++;
            if (now - rtt >= measureFromNs)
            {
                if (allocStart < 0)
                {
                    allocStart = threads.getTotalThreadAllocatedBytes();
                    ownAllocStart = threads.getCurrentThreadAllocatedBytes();
                }
                report.recordRoundTripNs(rtt);
                measured++;
            }
            if (now >= nextReportNs)
            {
                report.endInterval(++second);
                nextReportNs += TimeUnit.SECONDS.toNanos(1);
            }
            if (now >= endNs)
            {
                if (allocStart >= 0)
                {
                    allocated = threads.getTotalThreadAllocatedBytes() - allocStart;
                    ownAllocated = threads.getCurrentThreadAllocatedBytes() - ownAllocStart;
                    listenerThread = Thread.currentThread().getName();
                }
                if (second < seconds)
                {
                    report.endInterval(++second);
                }
                done = true;
                return;
            }
            sample.seq = outstanding + 1;
            sample.timestampNs = System.nanoTime();
            outstanding = sample.seq;
            try
            {
                writer.write(sample);
            }
            catch (final TimeoutException ex)
            {
                failure = ex;
            }
        }

        boolean done()
        {
            return done;
        }

        Exception failure()
        {
            return failure;
        }

        long roundTrips()
        {
            return trips;
        }

        long measuredTrips()
        {
            return measured;
        }

        long allocatedBytes()
        {
            return allocated;
        }

        /** Bytes the listener's own thread allocated while measuring (ThreadMXBean.getCurrentThreadAllocatedBytes). */
        long listenerAllocatedBytes()
        {
            return ownAllocated;
        }

        String listenerThread()
        {
            return listenerThread;
        }

        LatencyReport report()
        {
            return report;
        }
    }
}
