package io.sirocco.examples.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.core.status.DataAvailableStatus;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sirocco sub}: counts what a {@code pub} sends, per second and overall: samples/s, Mbit/s and lost samples
 * (gaps in the sequence numbers plus the reader's SampleLost count). Ends when the publisher goes away.
 *
 * <p>Exit codes ({@code ExitCodes}): 0 done, 1 failure, 5 a RELIABLE reader lost samples, 6 this process was excluded
 * from the domain's group during the run.
 */
@Command(name = "sub", mixinStandardHelpOptions = true, description = "Subscribe for a throughput test (ddsperf sub).")
public final class SubCommand implements Callable<Integer>
{
    @Option(names = "--seconds", defaultValue = "3600", description = "give up after (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int seconds;

    @Option(names = "--best-effort", description = "BEST_EFFORT reader")
    boolean bestEffort;

    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Option(names = "--filter", paramLabel = "DDS-SQL", description = "read through a ContentFilteredTopic with this " +
        "filter on the sample's members keyval, seq and timestampNs, e.g. \"seq > 10\" (the reader filters, and " +
        "the writer too while every matched reader filters; gaps in seq then do not count as lost)")
    String filter;

    @Spec
    CommandSpec spec;

    @Option(names = "--rtps", description = "speak DDSI-RTPS on ddsperf's data topic and type (Cyclone's ddsperf "
        + "is the other side); interface and peers from sirocco.dds.interface / sirocco.dds.peers")
    boolean rtps;

    @Override
    public Integer call() throws Exception
    {
        if (rtps)
        {
            return RtpsThroughput.sub(dds.domain, seconds, !bestEffort);
        }
        try (PerfSession session = dds.session())
        {
            final Topic<sirocco.perf.Sample> topic = session.topic(PerfSession.THROUGHPUT_TOPIC);
            final TopicDescription<sirocco.perf.Sample> source = filtered(session, topic);
            final Counter counter = new Counter(filter == null);
            // KEEP_ALL for both kinds: the listener takes once per delivery batch, and a KEEP_LAST 1 cache would keep
            // only the batch's last sample, so the count would measure batches (and call the replaced samples lost).
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(source,
                session.readerQos(!bestEffort, true), counter, List.of(DataAvailableStatus.class));
            final long giveUpNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            boolean matched = false;
            while (System.nanoTime() < giveUpNs)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                // Samples that came while no listener call was due (none expected; cheap when empty).
                counter.onDataAvailable(null, reader);
                final int current = reader.getSubscriptionMatchedStatus().getCurrentCount();
                matched |= current > 0;
                if (matched && current == 0)
                {
                    break;
                }
            }
            counter.onDataAvailable(null, reader);
            final long lostByStatus = reader.getSampleLostStatus().getTotalCount();
            final long received;
            final double rate;
            final long lost;
            final int size;
            final double elapsed;
            synchronized (counter)
            {
                received = counter.received;
                elapsed = Math.max(1e-9, (counter.lastNs - counter.firstNs) / 1e9);
                rate = received > 1 ? (received - 1) / elapsed : 0;
                lost = Math.max(counter.gaps, lostByStatus);
                size = counter.size;
            }
            System.out.printf(Locale.ROOT, "sub: received %d samples in %.2f s: %.0f samples/s, %.1f Mbit/s, lost %d%n",
                received, elapsed, rate, rate * size * 8 / 1e6, lost);
            if (json)
            {
                System.out.println(String.format(Locale.ROOT, "{\"mode\":\"throughput\",\"transport\":\"%s\"," +
                    "\"size\":%d,\"samples_per_s\":%.0f,\"mbit_per_s\":%.1f,\"lost\":%d,\"filter\":%s}", dds.transport,
                    size, rate, rate * size * 8 / 1e6, lost, filter == null ? "null" :
                    "\"" + filter.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
            }
            // Losses count for RELIABLE only: BEST_EFFORT may drop samples by contract.
            return session.exitCode("sub", bestEffort ? 0 : lost);
        }
    }

    /** The topic itself, or a ContentFilteredTopic of it with {@code --filter}; a bad filter is a usage error. */
    private TopicDescription<sirocco.perf.Sample> filtered(final PerfSession session,
        final Topic<sirocco.perf.Sample> topic)
    {
        if (filter == null)
        {
            return topic;
        }
        try
        {
            final String name = PerfSession.THROUGHPUT_TOPIC + "_filtered";
            return session.participant().createContentFilteredTopic(name, topic, filter, List.of());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--filter: " + ex.getMessage());
        }
    }

    /**
     * Counts samples from the reader's DataAvailable listener (on the predicate thread when
     * {@code sirocco.dds.listener.inline} is on): received, bytes, gaps in the sequence numbers, and a line per second.
     * Synchronized: the listener's thread and the main thread's sweeps never overlap.
     */
    private static final class Counter extends DataReaderAdapter<sirocco.perf.Sample>
    {
        /** Whether a gap in the sequence numbers is a lost sample (not when a filter drops samples). */
        private final boolean gapsAreLost;
        long received;
        long lastSeq;
        long gaps;
        long firstNs;
        long lastNs;
        long intervalStart;
        long intervalCount;
        int size;

        Counter(final boolean gapsAreLost)
        {
            this.gapsAreLost = gapsAreLost;
        }

        @Override
        public void onDataAvailable(final DataAvailableEvent<sirocco.perf.Sample> event)
        {
            onDataAvailable(event, event.getSource());
        }

        synchronized void onDataAvailable(final DataAvailableEvent<sirocco.perf.Sample> event,
            final DataReader<sirocco.perf.Sample> reader)
        {
            try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
            {
                while (it.hasNext())
                {
                    final sirocco.perf.Sample sample = it.next().getData();
                    if (sample != null)
                    {
                        count(sample);
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        private void count(final sirocco.perf.Sample sample)
        {
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
            if (gapsAreLost && sample.seq > lastSeq + 1)
            {
                gaps += sample.seq - lastSeq - 1;
            }
            lastSeq = Math.max(lastSeq, sample.seq);
            if (now - intervalStart >= 1_000_000_000L)
            {
                final double rate = intervalCount * 1e9 / (now - intervalStart);
                System.out.printf(Locale.ROOT, "sub: %.0f samples/s, %.1f Mbit/s, lost so far %d%n", rate,
                    rate * size * 8 / 1e6, gaps);
                intervalStart = now;
                intervalCount = 0;
            }
        }
    }
}
