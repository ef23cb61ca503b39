package io.sirocco.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.perf.LatencyReport;
import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sirocco ping}: the latency half of ddsperf's ping/pong. Writes a {@code sirocco.perf.Sample} on the ping
 * topic (RELIABLE, KEEP_LAST 1), waits for pong's echo, and reports one-way latency = RTT/2 per second and overall.
 * Exit codes: 0 done, 1 failure, 4 no pong matched within 60 s.
 */
@Command(name = "ping", mixinStandardHelpOptions = true,
    description = "Round-trip latency against a pong (one-way = RTT/2), like ddsperf ping.")
public final class PingCommand implements Callable<Integer>
{
    @Option(names = "--size", defaultValue = "64", description = "payload bytes (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--seconds", defaultValue = "10", description = "measurement time (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--warmup", defaultValue = "1", description = "seconds not measured first (default ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--transport", defaultValue = "shm", description = "shm | tcp | local (default ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--domain", defaultValue = "0", description = "DDS domain id (default ${DEFAULT-VALUE})")
    int domain;

    @Option(names = "--with-pong", description = "fork a pong process")
    boolean withPong;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        try (PerfSession session = new PerfSession(transport, domain))
        {
            final Topic<sirocco.perf.Sample> ping = session.participant().createTopic(PerfSession.PING_TOPIC,
                sirocco.perf.Sample.class);
            final Topic<sirocco.perf.Sample> pong = session.participant().createTopic(PerfSession.PONG_TOPIC,
                sirocco.perf.Sample.class);
            final DataWriter<sirocco.perf.Sample> writer = session.publisher().createDataWriter(ping,
                session.writerQos(true, false));
            final long readerCreatedNs = System.nanoTime();
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(pong,
                session.readerQos(true, false));
            PerfSession.Child child = null;
            try
            {
                if (withPong)
                {
                    final List<String> args = new ArrayList<>(List.of("pong", "--transport", transport, "--domain",
                        String.valueOf(domain), "--seconds", String.valueOf(seconds + warmup + 90)));
                    child = new PerfSession.Child(args);
                }
                final long matchStart = System.nanoTime();
                if (!PerfSession.await(() -> writer.getPublicationMatchedStatus().getCurrentCount() > 0 &&
                    reader.getSubscriptionMatchedStatus().getCurrentCount() > 0, 60_000))
                {
                    System.err.println("ping: no pong matched within 60 s on domain " + domain + " (" + transport +
                        "); start 'sirocco pong' or use --with-pong");
                    return 4;
                }
                System.out.printf("ping: matched a pong %.1f ms after createDataReader (%.1f ms after waiting " +
                    "began; transport %s, size %d B)%n", (System.nanoTime() - readerCreatedNs) / 1e6,
                    (System.nanoTime() - matchStart) / 1e6, transport, size);
                return run(writer, reader);
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

    private int run(final DataWriter<sirocco.perf.Sample> writer, final DataReader<sirocco.perf.Sample> reader)
        throws Exception
    {
        final sirocco.perf.Sample sample = new sirocco.perf.Sample(0, 0, 0, new byte[size]);
        final LatencyReport report = new LatencyReport(System.out);
        final long startNs = System.nanoTime();
        final long measureFromNs = startNs + TimeUnit.SECONDS.toNanos(warmup);
        final long endNs = measureFromNs + TimeUnit.SECONDS.toNanos(seconds);
        long nextReportNs = measureFromNs + TimeUnit.SECONDS.toNanos(1);
        int second = 0;
        report.printHeader();
        long seq = 0;
        while (true)
        {
            final long now = System.nanoTime();
            if (now >= endNs)
            {
                break;
            }
            if (now >= nextReportNs)
            {
                report.endInterval(++second);
                nextReportNs += TimeUnit.SECONDS.toNanos(1);
            }
            sample.seq = ++seq;
            sample.timestampNs = System.nanoTime();
            writer.write(sample);
            final long rtt = awaitEcho(reader, seq);
            if (rtt < 0)
            {
                System.err.println("ping: no echo of sample " + seq + " within 10 s; pong gone?");
                return 1;
            }
            if (sample.timestampNs >= measureFromNs)
            {
                report.recordRoundTripNs(rtt);
            }
        }
        if (second < seconds)
        {
            report.endInterval(++second);
        }
        report.printOverall();
        if (json)
        {
            System.out.println(report.json(transport, size));
        }
        return 0;
    }

    /** Takes until the echo of {@code seq} arrives; returns the RTT in ns, or -1 after 10 s. */
    private static long awaitEcho(final DataReader<sirocco.perf.Sample> reader, final long seq) throws Exception
    {
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int idle = 0;
        while (true)
        {
            try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
            {
                while (it.hasNext())
                {
                    final sirocco.perf.Sample echo = it.next().getData();
                    if (echo != null && echo.seq == seq)
                    {
                        return System.nanoTime() - echo.timestampNs;
                    }
                }
            }
            if (++idle < 20_000)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(20_000);
                if (System.nanoTime() > giveUp)
                {
                    return -1;
                }
            }
        }
    }
}
