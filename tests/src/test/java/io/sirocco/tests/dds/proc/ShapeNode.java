package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.tests.dds.types.Shape;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A child process for the multi-process tests, speaking line by line on stdout:
 * {@code pub <domain>} writes RED shapes x = 1, 2, 3 ... (RELIABLE, KEEP_ALL) every millisecond and prints
 * {@code SENT n} every 100 samples; {@code sub <domain>} prints {@code MATCHED}, then {@code RECEIVED n gaps g} every 100
 * samples (a gap is a missing x), {@code FIRST x} for its first sample, and {@code NO_WRITERS} when the instance
 * becomes NOT_ALIVE_NO_WRITERS. Both print
 * {@code JOINED} once their participant is in the domain. For triage, a matched {@code sub} that received nothing for
 * 2 s prints {@code IDLE} (every 2 s while it lasts) with its counts, and {@code burst} prints {@code WROTE n} every 500.
 */
public final class ShapeNode
{
    private static final long IDLE_NS = TimeUnit.SECONDS.toNanos(2);

    private ShapeNode()
    {
    }

    /**
     * {@code burst <domain> <subscribers> <count> <maxBlockingMs>}: waits for the subscribers, writes {@code count}
     * samples as fast as it can, prints {@code DONE n}, or {@code TIMEOUT n} when a write timed out.
     */
    private static void burst(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int subscribers, final int count, final long maxBlockingMs) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(maxBlockingMs, TimeUnit.MILLISECONDS),
                pf.History().withKeepAll()));
        while (writer.getPublicationMatchedStatus().getCurrentCount() < subscribers)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        System.out.println("MATCHED");
        System.out.flush();
        final Shape shape = new Shape("RED", 0, 0, 10);
        for (int x = 1; x <= count; x++)
        {
            shape.x = x;
            try
            {
                writer.write(shape);
                if (x % 500 == 0)
                {
                    System.out.println("WROTE " + x);
                    System.out.flush();
                }
            }
            catch (final java.util.concurrent.TimeoutException ex)
            {
                System.out.println("TIMEOUT " + x + " " + ex.getMessage());
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
        }
        System.out.println("DONE " + count);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * {@code slowsub <domain> reliable|besteffort}: a reader whose listener takes 20 ms per call (2 s when RELIABLE,
     * so that it falls a whole window behind); prints LOST n.
     */
    private static void slowSub(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final boolean reliable) throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(reliable ? pf.Reliability().withReliable() : pf.Reliability().withBestEffort(),
                pf.History().withKeepAll()), new org.omg.dds.sub.DataReaderAdapter<>()
            {
                @Override
                public void onDataAvailable(final org.omg.dds.core.event.DataAvailableEvent<Shape> event)
                {
                    event.getSource().take(new ArrayList<>());
                    try
                    {
                        Thread.sleep(reliable ? 2_000 : 20);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            }, null);
        int reported = 0;
        while (true)
        {
            final int lost = reader.getSampleLostStatus().getTotalCount();
            if (lost != reported)
            {
                reported = lost;
                System.out.println("LOST " + lost);
                System.out.flush();
            }
            if (reader.getSubscriptionMatchedStatus().getCurrentCount() > 0 && reported == 0 && lost == 0)
            {
                System.out.println("MATCHED");
                System.out.flush();
            }
            Thread.sleep(50);
        }
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(ShapeNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        System.out.println("JOINED");
        System.out.flush();
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("MultiProcess", Shape.class);
        if (args[0].equals("burst"))
        {
            burst(participant, pf, topic, Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Long.parseLong(args[4]));
            return;
        }
        if (args[0].equals("slowsub"))
        {
            slowSub(participant, pf, topic, args[2].equals("reliable"));
            return;
        }
        if (args[0].equals("pub"))
        {
            final Publisher publisher = participant.createPublisher();
            final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                    pf.History().withKeepAll(), pf.WriterDataLifecycle().withAutDisposeUnregisteredInstances(false)));
            final int subscribers = Integer.parseInt(args[2]);
            while (writer.getPublicationMatchedStatus().getCurrentCount() < subscribers)
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
            System.out.println("MATCHED");
            System.out.flush();
            final Shape shape = new Shape("RED", 0, 0, 10);
            for (int x = 1; ; x++)
            {
                shape.x = x;
                writer.write(shape);
                if (x % 100 == 0)
                {
                    System.out.println("SENT " + x);
                    System.out.flush();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
        }
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        boolean matched = false;
        long received = 0;
        long gaps = 0;
        int last = 0;
        long lastSampleNs = System.nanoTime();
        long idleReportedNs = 0;
        final List<Sample<Shape>> samples = new ArrayList<>();
        while (true)
        {
            if (!matched && reader.getSubscriptionMatchedStatus().getCurrentCount() > 0)
            {
                matched = true;
                System.out.println("MATCHED");
                System.out.flush();
            }
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() != null)
                {
                    final int x = sample.getData().x;
                    if (received == 0)
                    {
                        // A reader matched before the first write must get x = 1: a later first x is a lost prefix
                        // (no GAP line can show it), as when a writer's first samples overtook its record.
                        System.out.println("FIRST " + x);
                        System.out.flush();
                    }
                    if (last != 0 && x != last + 1)
                    {
                        gaps += Math.max(0, x - last - 1);
                        System.out.println("GAP " + last + " -> " + x);
                    }
                    last = Math.max(last, x);
                    if (++received % 100 == 0)
                    {
                        System.out.println("RECEIVED " + received + " gaps " + gaps);
                        System.out.flush();
                    }
                }
                if (sample.getInstanceState() == InstanceState.NOT_ALIVE_NO_WRITERS)
                {
                    System.out.println("NO_WRITERS received " + received + " gaps " + gaps);
                    System.out.flush();
                }
            }
            if (samples.isEmpty())
            {
                // Diagnostics: a reader that stops receiving says so every 2 s, with what it knows then.
                final long now = System.nanoTime();
                if (matched && now - lastSampleNs > IDLE_NS && now - idleReportedNs > IDLE_NS)
                {
                    idleReportedNs = now;
                    System.out.println("IDLE " + (now - lastSampleNs) / 1_000_000 + " ms received " + received +
                        " last " + last + " gaps " + gaps + " matched " +
                        reader.getSubscriptionMatchedStatus().getCurrentCount() + " lost " +
                        reader.getSampleLostStatus().getTotalCount());
                    System.out.flush();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(500_000L);
            }
            else
            {
                lastSampleNs = System.nanoTime();
            }
        }
    }
}
