package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A child process for TRANSIENT_LOCAL matching between processes, line by line on stdout.
 * {@code reader <domain>}: a TRANSIENT_LOCAL RELIABLE reader; prints {@code COMPLETE r} once it has samples 1..3 of
 * round r (color {@code R<r>}). {@code writer <domain> <rounds>}: first a VOLATILE writer on the topic that stays
 * open (so this member is already a sender of the topic's subgroup and each new writer's record is ready at once), then per round a new
 * TRANSIENT_LOCAL writer that writes three samples as soon as it is matched, waits for acknowledgments and prints
 * {@code WROTE r} (the writers stay open; with a fourth argument {@code close} each is closed right after
 * waitForAcknowledgments, before {@code WROTE r}). Both print {@code JOINED}.
 */
public final class TransientLocalNode
{
    private static final int SAMPLES = 3;

    private TransientLocalNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(TransientLocalNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("TransientLocalRace", Shape.class);
        System.out.println("JOINED");
        System.out.flush();
        if (args[0].equals("writer"))
        {
            write(participant, pf, topic, Integer.parseInt(args[2]), args.length > 3 && args[3].equals("close"));
        }
        else
        {
            read(participant, pf, topic);
        }
    }

    private static void write(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int rounds, final boolean close) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        // Stays open and writes nothing: this member is a sender of the topic's subgroup from here on.
        publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.Durability().withVolatile()));
        for (int round = 1; round <= rounds; round++)
        {
            final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                    pf.Durability().withTransientLocal(), pf.History().withKeepLast(SAMPLES)));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (writer.getPublicationMatchedStatus().getCurrentCount() < 1 && System.nanoTime() < deadline)
            {
                java.util.concurrent.locks.LockSupport.parkNanos(200_000L);
            }
            for (int i = 1; i <= SAMPLES; i++)
            {
                writer.write(new Shape("R" + round, i, 0, 1));
            }
            writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
            final int matched = writer.getPublicationMatchedStatus().getCurrentCount();
            if (close)
            {
                // The retraction must not overtake the samples still on their way to the reader (docs/dds.md).
                writer.close();
            }
            System.out.println("WROTE " + round + " matched " + matched);
            System.out.flush();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void read(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic)
        throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.Durability().withTransientLocal(),
                pf.History().withKeepAll()));
        final Map<String, Integer> got = new HashMap<>();
        final List<Sample<Shape>> samples = new ArrayList<>();
        while (true)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() != null)
                {
                    final int count = got.merge(sample.getData().color, 1, Integer::sum);
                    if (count == SAMPLES)
                    {
                        System.out.println("COMPLETE " + sample.getData().color.substring(1));
                        System.out.flush();
                    }
                }
            }
            if (samples.isEmpty())
            {
                java.util.concurrent.locks.LockSupport.parkNanos(500_000L);
            }
        }
    }
}
