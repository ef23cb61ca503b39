package io.sirocco.examples.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sirocco sub}: counts what a {@code pub} sends, per second and overall: samples/s, Mbit/s and lost samples
 * (gaps in the sequence numbers plus the reader's SampleLost count). Ends when the publisher goes away.
 */
@Command(name = "sub", mixinStandardHelpOptions = true, description = "Subscribe for a throughput test (ddsperf sub).")
public final class SubCommand implements Callable<Integer>
{
    @Option(names = "--seconds", defaultValue = "3600", description = "give up after (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--best-effort", description = "BEST_EFFORT reader")
    boolean bestEffort;

    @Option(names = "--transport", defaultValue = "shm", description = "shm | tcp | local (default ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--domain", defaultValue = "0", description = "DDS domain id (default ${DEFAULT-VALUE})")
    int domain;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        try (PerfSession session = new PerfSession(transport, domain))
        {
            final Topic<sirocco.perf.Sample> topic = session.participant().createTopic(PerfSession.THROUGHPUT_TOPIC,
                sirocco.perf.Sample.class);
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(topic,
                session.readerQos(!bestEffort, !bestEffort));
            final long giveUpNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long received = 0;
            long bytes = 0;
            long lastSeq = 0;
            long gaps = 0;
            long firstNs = 0;
            long lastNs = 0;
            long intervalStart = 0;
            long intervalCount = 0;
            int size = 0;
            boolean matched = false;
            int idle = 0;
            while (System.nanoTime() < giveUpNs)
            {
                boolean got = false;
                try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
                {
                    while (it.hasNext())
                    {
                        final sirocco.perf.Sample sample = it.next().getData();
                        if (sample == null)
                        {
                            continue;
                        }
                        got = true;
                        final long now = System.nanoTime();
                        if (firstNs == 0)
                        {
                            firstNs = now;
                            intervalStart = now;
                        }
                        lastNs = now;
                        received++;
                        intervalCount++;
                        size = sample.payload.length;
                        bytes += size;
                        if (sample.seq > lastSeq + 1)
                        {
                            gaps += sample.seq - lastSeq - 1;
                        }
                        lastSeq = Math.max(lastSeq, sample.seq);
                        if (now - intervalStart >= 1_000_000_000L)
                        {
                            final double rate = intervalCount * 1e9 / (now - intervalStart);
                            System.out.printf(Locale.ROOT, "sub: %.0f samples/s, %.1f Mbit/s, lost so far %d%n",
                                rate, rate * size * 8 / 1e6, gaps);
                            intervalStart = now;
                            intervalCount = 0;
                        }
                    }
                }
                if (got)
                {
                    idle = 0;
                    continue;
                }
                if (++idle < 20_000)
                {
                    Thread.onSpinWait();
                    continue;
                }
                LockSupport.parkNanos(50_000);
                if ((idle & 1023) == 0)
                {
                    final int current = reader.getSubscriptionMatchedStatus().getCurrentCount();
                    matched |= current > 0;
                    if (matched && current == 0)
                    {
                        break;
                    }
                }
            }
            final long lostByStatus = reader.getSampleLostStatus().getTotalCount();
            final double seconds = Math.max(1e-9, (lastNs - firstNs) / 1e9);
            final double rate = received > 1 ? (received - 1) / seconds : 0;
            final long lost = Math.max(gaps, lostByStatus);
            System.out.printf(Locale.ROOT, "sub: received %d samples in %.2f s: %.0f samples/s, %.1f Mbit/s, lost %d%n",
                received, seconds, rate, rate * size * 8 / 1e6, lost);
            if (json)
            {
                System.out.println(String.format(Locale.ROOT, "{\"mode\":\"throughput\",\"transport\":\"%s\"," +
                    "\"size\":%d,\"samples_per_s\":%.0f,\"mbit_per_s\":%.1f,\"lost\":%d}", transport, size, rate,
                    rate * size * 8 / 1e6, lost));
            }
            return 0;
        }
    }
}
