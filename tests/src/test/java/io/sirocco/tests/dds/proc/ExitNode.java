package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * A child that ends one of three ways, for the shared-memory clean-up tests: {@code <pub|sub> <domain> <count>
 * <close|return|wait>}. {@code pub} writes {@code count} RELIABLE samples once a reader matched, then waits until
 * the reader left; {@code sub} takes {@code count} samples. Then {@code close} closes the participant and returns
 * from {@code main}, {@code return} returns from {@code main} without closing it (the JVM exits, every Sirocco thread
 * being a daemon), and {@code wait} parks until the test kills it. Prints {@code JOINED}, {@code MATCHED}, then
 * {@code WROTE n} or {@code RECEIVED n}, and {@code ENDING} before it ends. Every wait is bounded (120 s).
 */
public final class ExitNode
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);

    private ExitNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(ExitNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        say("JOINED");
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("Cleanup", Shape.class);
        final int count = Integer.parseInt(args[2]);
        if (args[0].equals("pub"))
        {
            publish(participant, pf, topic, count);
        }
        else
        {
            subscribe(participant, pf, topic, count);
        }
        say("ENDING");
        switch (args[3])
        {
            case "close" -> participant.close();
            case "return" ->
            {
                // Nothing: main returns with the participant open.
            }
            default -> LockSupport.parkNanos(WAIT_NS);
        }
    }

    private static void publish(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int count) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                pf.History().withKeepAll()));
        awaitTrue(() -> writer.getPublicationMatchedStatus().getCurrentCount() > 0, "a matched reader");
        say("MATCHED");
        final Shape shape = new Shape("RED", 0, 0, 10);
        for (int x = 1; x <= count; x++)
        {
            shape.x = x;
            writer.write(shape);
        }
        say("WROTE " + count);
        awaitTrue(() -> writer.getPublicationMatchedStatus().getCurrentCount() == 0, "the reader's departure");
    }

    private static void subscribe(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<Shape> topic, final int count)
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        awaitTrue(() -> reader.getSubscriptionMatchedStatus().getCurrentCount() > 0, "a matched writer");
        say("MATCHED");
        final List<Sample<Shape>> samples = new ArrayList<>();
        final int[] received = {0};
        awaitTrue(() ->
        {
            reader.take(samples);
            samples.forEach(s -> received[0] += s.getData() == null ? 0 : 1);
            return received[0] >= count;
        }, count + " samples");
        say("RECEIVED " + received[0]);
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                say("TIMEOUT waiting for " + what);
                System.exit(3);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
