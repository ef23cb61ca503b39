package io.sirocco.examples.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sirocco pong}: echoes every ping sample back on the pong topic. Ends when its ping goes away (after one was
 * matched) or after {@code --seconds}.
 */
@Command(name = "pong", mixinStandardHelpOptions = true, description = "Echo ping samples (the other half of ping).")
public final class PongCommand implements Callable<Integer>
{
    @Option(names = "--seconds", defaultValue = "3600", description = "give up after (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--transport", defaultValue = "shm", description = "shm | tcp | local (default ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--domain", defaultValue = "0", description = "DDS domain id (default ${DEFAULT-VALUE})")
    int domain;

    @Override
    public Integer call() throws Exception
    {
        try (PerfSession session = new PerfSession(transport, domain))
        {
            final Topic<sirocco.perf.Sample> ping = session.participant().createTopic(PerfSession.PING_TOPIC,
                sirocco.perf.Sample.class);
            final Topic<sirocco.perf.Sample> pong = session.participant().createTopic(PerfSession.PONG_TOPIC,
                sirocco.perf.Sample.class);
            final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(ping,
                session.readerQos(true, false));
            final DataWriter<sirocco.perf.Sample> writer = session.publisher().createDataWriter(pong,
                session.writerQos(true, false));
            System.err.println("pong: ready on domain " + domain + " (" + transport + ")");
            final long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            boolean seenPing = false;
            long echoed = 0;
            int idle = 0;
            while (System.nanoTime() < endNs)
            {
                boolean got = false;
                try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
                {
                    while (it.hasNext())
                    {
                        final sirocco.perf.Sample sample = it.next().getData();
                        if (sample != null)
                        {
                            writer.write(sample);
                            echoed++;
                            got = true;
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
                LockSupport.parkNanos(20_000);
                if ((idle & 1023) == 0)
                {
                    final int matched = reader.getSubscriptionMatchedStatus().getCurrentCount();
                    seenPing |= matched > 0;
                    if (seenPing && matched == 0)
                    {
                        break;
                    }
                }
            }
            System.err.println("pong: echoed " + echoed + " samples");
            return 0;
        }
    }
}
