package io.sirocco.examples.cli;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.perf.PerfSession;
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
 * {@code sirocco pong}: echoes every ping sample back on the pong topic. Ends when its ping goes away (after one was
 * matched) or after {@code --seconds}.
 *
 * <p>Exit codes ({@code ExitCodes}): 0 done, 1 failure, 6 this process was excluded from the domain's group during the
 * run.
 */
@Command(name = "pong", mixinStandardHelpOptions = true, description = "Echo ping samples (the other half of ping).")
public final class PongCommand implements Callable<Integer>
{
    @Option(names = "--seconds", defaultValue = "3600", description = "give up after (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int seconds;

    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--rtps", description = "speak DDSI-RTPS with ddsperf's topics and types (Cyclone's ddsperf "
        + "is the other side); interface and peers from sirocco.dds.interface / sirocco.dds.peers")
    boolean rtps;

    @Override
    public Integer call() throws Exception
    {
        if (rtps)
        {
            return RtpsPerf.pong(dds.domain, seconds);
        }
        try (PerfSession session = dds.session())
        {
            final Topic<sirocco.perf.Sample> ping = session.topic(PerfSession.PING_TOPIC);
            final Topic<sirocco.perf.Sample> pong = session.topic(PerfSession.PONG_TOPIC);
            final Echo echo = new Echo();
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(ping,
                session.readerQos(true, false), echo, List.of(DataAvailableStatus.class));
            echo.writer = session.publisher().createDataWriter(pong, session.writerQos(true, false));
            // Samples that arrived before the writer existed: the listener only runs on new data.
            echo.onDataAvailable(null, reader);
            System.err.println("pong: ready on domain " + dds.domain + " (" + dds.transport + ")");
            final long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            boolean seenPing = false;
            while (System.nanoTime() < endNs && echo.failure == null)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                final int matched = reader.getSubscriptionMatchedStatus().getCurrentCount();
                seenPing |= matched > 0;
                if (seenPing && matched == 0)
                {
                    break;
                }
            }
            if (echo.failure != null)
            {
                System.err.println("pong: echoing failed: " + echo.failure);
                return 1;
            }
            System.err.println("pong: echoed " + echo.echoed + " samples");
            return session.exitCode("pong", 0);
        }
    }

    /**
     * Echoes every ping from the reader's DataAvailable listener (on the predicate thread when
     * {@code sirocco.dds.listener.inline} is on), as ddsperf's pong does. Synchronized: the listener's thread and the
     * main thread's first call never overlap.
     */
    private static final class Echo extends DataReaderAdapter<sirocco.perf.Sample>
    {
        volatile DataWriter<sirocco.perf.Sample> writer;
        volatile long echoed;
        volatile Exception failure;

        @Override
        public void onDataAvailable(final DataAvailableEvent<sirocco.perf.Sample> event)
        {
            onDataAvailable(event, event.getSource());
        }

        synchronized void onDataAvailable(final DataAvailableEvent<sirocco.perf.Sample> event,
            final DataReader<sirocco.perf.Sample> reader)
        {
            final DataWriter<sirocco.perf.Sample> out = writer;
            if (out == null)
            {
                return;
            }
            try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
            {
                while (it.hasNext())
                {
                    final sirocco.perf.Sample sample = it.next().getData();
                    if (sample != null)
                    {
                        out.write(sample);
                        echoed++;
                    }
                }
            }
            catch (final Exception ex)
            {
                failure = ex;
            }
        }
    }
}
