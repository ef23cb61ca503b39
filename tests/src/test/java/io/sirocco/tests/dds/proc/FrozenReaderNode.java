package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

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
 * A child process for {@code FrozenReaderRetainTest}, speaking line by line on stdout. {@code pub <domain>} writes RED
 * shapes x = 1, 2, 3 ... (RELIABLE, KEEP_ALL, VOLATILE) every 2 ms for ever, each x until its write succeeds (a write
 * that timed out is tried again, so that x never skips), and prints {@code SENT x} every 100 samples and
 * {@code MATCHED n} whenever its PublicationMatched current count changes. {@code sub <domain>} (RELIABLE, KEEP_ALL)
 * prints {@code FIRST x} for its first sample, {@code GAP a -> b} when a sample is not the one after the last,
 * {@code REPEAT x} when it is not newer, {@code RECEIVED n last x} every 100 samples and {@code MATCHED n} as the pub
 * does. {@code idle <domain>} only takes part in the domain. All print {@code JOINED} once in the domain.
 */
public final class FrozenReaderNode
{
    private FrozenReaderNode()
    {
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(FrozenReaderNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        say("JOINED");
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("Frozen", Shape.class);
        switch (args[0])
        {
            case "pub" -> publish(participant, pf, topic);
            case "sub" -> subscribe(participant, pf, topic);
            default ->
            {
                while (true)
                {
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // the third member: it only takes part
                }
            }
        }
    }

    private static void publish(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic)
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(10, TimeUnit.SECONDS),
                pf.History().withKeepAll(), pf.Durability().withVolatile()));
        final Shape shape = new Shape("RED", 0, 0, 10);
        int matched = 0;
        for (int x = 1; ; x++)
        {
            final int now = writer.getPublicationMatchedStatus().getCurrentCount();
            if (now != matched)
            {
                matched = now;
                say("MATCHED " + now);
            }
            shape.x = x;
            while (true)
            {
                try
                {
                    writer.write(shape);
                    break;
                }
                catch (final TimeoutException ex)
                {
                    say("TIMEOUT " + x); // the same x again: the reader's sequence must not skip
                }
            }
            if (x % 100 == 0)
            {
                say("SENT " + x);
            }
            LockSupport.parkNanos(2_000_000L);
        }
    }

    private static void subscribe(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<Shape> topic)
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll(), pf.Durability().withVolatile()));
        int matched = 0;
        long received = 0;
        int last = 0;
        final List<Sample<Shape>> samples = new ArrayList<>();
        while (true)
        {
            final int now = reader.getSubscriptionMatchedStatus().getCurrentCount();
            if (now != matched)
            {
                matched = now;
                say("MATCHED " + now);
            }
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() == null)
                {
                    continue;
                }
                final int x = sample.getData().x;
                if (last == 0)
                {
                    say("FIRST " + x);
                }
                else if (x <= last)
                {
                    say("REPEAT " + x + " after " + last);
                }
                else if (x != last + 1)
                {
                    say("GAP " + last + " -> " + x);
                }
                last = Math.max(last, x);
                if (++received % 100 == 0)
                {
                    say("RECEIVED " + received + " last " + last);
                }
            }
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
