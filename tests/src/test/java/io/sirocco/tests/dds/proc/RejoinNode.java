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
 * A child process for the rejoin and merge tests, speaking line by line on stdout. {@code pub <domain>} writes RED
 * shapes x = 1, 2, 3 ... (RELIABLE, KEEP_ALL, 2 s max_blocking_time) every 5 ms for ever, prints {@code SENT x} every
 * 100 samples, {@code TIMEOUT x} when a write timed out, and {@code MATCHED n} whenever its PublicationMatched current
 * count changes. {@code sub <domain>} prints {@code MATCHED n} whenever its SubscriptionMatched current count changes,
 * {@code RECEIVED n last x} every 50 samples, {@code NO_WRITERS received n last x} when the instance becomes
 * NOT_ALIVE_NO_WRITERS and {@code ALIVE_AGAIN x} for the first sample after that. Both print {@code JOINED} once their
 * participant is in the domain.
 */
public final class RejoinNode
{
    private RejoinNode()
    {
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(RejoinNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        say("JOINED");
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("Rejoin", Shape.class);
        if (args[0].equals("pub"))
        {
            publish(participant, pf, topic);
        }
        else
        {
            subscribe(participant, pf, topic);
        }
    }

    private static void publish(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic)
        throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(2, TimeUnit.SECONDS),
                pf.History().withKeepAll(), pf.WriterDataLifecycle().withAutDisposeUnregisteredInstances(false)));
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
            try
            {
                writer.write(shape);
            }
            catch (final java.util.concurrent.TimeoutException ex)
            {
                say("TIMEOUT " + x + " " + ex.getMessage());
            }
            if (x % 100 == 0)
            {
                say("SENT " + x);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
        }
    }

    private static void subscribe(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<Shape> topic)
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        int matched = 0;
        long received = 0;
        int last = 0;
        boolean noWriters = false;
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
                if (sample.getData() != null)
                {
                    final int x = sample.getData().x;
                    last = x;
                    if (noWriters)
                    {
                        noWriters = false;
                        say("ALIVE_AGAIN " + x);
                    }
                    if (++received % 50 == 0)
                    {
                        say("RECEIVED " + received + " last " + x);
                    }
                }
                if (sample.getInstanceState() == InstanceState.NOT_ALIVE_NO_WRITERS && !noWriters)
                {
                    noWriters = true;
                    say("NO_WRITERS received " + received + " last " + last);
                }
            }
            if (samples.isEmpty())
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
