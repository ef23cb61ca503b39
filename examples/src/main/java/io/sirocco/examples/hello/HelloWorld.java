package io.sirocco.examples.hello;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import hello.HelloMsg;
import io.sirocco.dds.config.ServiceBootstrap;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * Hello world over DDS, with the IDL type {@code hello::HelloMsg}, written against the OMG API only.
 *
 * <pre>
 * java -cp examples/target/sirocco.jar io.sirocco.examples.hello.HelloWorld sub &amp;
 * java -cp examples/target/sirocco.jar io.sirocco.examples.hello.HelloWorld pub 10
 * </pre>
 */
public final class HelloWorld
{
    public static final String TOPIC = "HelloWorld";

    private static final long MATCH_TIMEOUT_SECONDS = 60;

    private HelloWorld()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String mode = args.length > 0 ? args[0] : "pub";
        final int count = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(HelloWorld.class.getClassLoader());
        if (mode.equals("pub"))
        {
            publish(env, 0, count, 1000);
        }
        else
        {
            for (final String line : subscribe(env, 0, count, 120))
            {
                System.out.println(line);
            }
        }
    }

    /** Publishes {@code count} greetings, one every {@code periodMs}, once a subscriber is matched (waiting up to 60 s). */
    public static void publish(final ServiceEnvironment env, final int domain, final int count, final long periodMs)
        throws Exception
    {
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        try
        {
            final PolicyFactory policies = PolicyFactory.getPolicyFactory(env);
            final Topic<HelloMsg> topic = participant.createTopic(TOPIC, HelloMsg.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<HelloMsg> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(policies.Reliability().withReliable(), policies.Durability().withTransientLocal(),
                    policies.History().withKeepLast(count)));
            awaitSubscriber(env, writer, MATCH_TIMEOUT_SECONDS);
            for (int i = 1; i <= count; i++)
            {
                writer.write(new HelloMsg(1, "Hello World " + i));
                Thread.sleep(periodMs);
            }
            writer.waitForAcknowledgments(10, TimeUnit.SECONDS);
        }
        finally
        {
            participant.close();
        }
    }

    /**
     * Waits on a WaitSet until the writer is matched with a subscriber: the greetings are TRANSIENT_LOCAL, but only
     * while the writer lives, so a publisher that wrote and closed before any subscriber joined would leave nothing.
     *
     * @throws TimeoutException when no subscriber matched within {@code timeoutSeconds}.
     */
    private static void awaitSubscriber(final ServiceEnvironment env, final DataWriter<HelloMsg> writer,
        final long timeoutSeconds) throws TimeoutException
    {
        final StatusCondition<DataWriter<HelloMsg>> matched = writer.getStatusCondition();
        matched.setEnabledStatuses(List.of(PublicationMatchedStatus.class));
        final WaitSet waitSet = WaitSet.newWaitSet(env);
        waitSet.attachCondition(matched);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (writer.getPublicationMatchedStatus().getCurrentCount() == 0)
        {
            waitSet.waitForConditions(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        waitSet.detachCondition(matched);
    }

    /** Receives {@code count} greetings (waiting on a WaitSet) and returns them as text. */
    public static List<String> subscribe(final ServiceEnvironment env, final int domain, final int count,
        final int timeoutSeconds) throws Exception
    {
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        try
        {
            final PolicyFactory policies = PolicyFactory.getPolicyFactory(env);
            final Topic<HelloMsg> topic = participant.createTopic(TOPIC, HelloMsg.class);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<HelloMsg> reader = subscriber.createDataReader(topic, subscriber
                .getDefaultDataReaderQos().withPolicies(policies.Reliability().withReliable(),
                    policies.Durability().withTransientLocal(), policies.History().withKeepAll()));
            final ReadCondition<HelloMsg> anyData = reader.createReadCondition(subscriber.createDataState()
                .withAnySampleState().withAnyViewState().withAnyInstanceState());
            final WaitSet waitSet = WaitSet.newWaitSet(env);
            waitSet.attachCondition(anyData);
            final List<String> received = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (received.size() < count && System.nanoTime() < deadline)
            {
                try
                {
                    waitSet.waitForConditions(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
                catch (final TimeoutException ex)
                {
                    break;
                }
                for (final Sample<HelloMsg> sample : reader.take(new ArrayList<>()))
                {
                    if (sample.getData() != null)
                    {
                        received.add(sample.getData().message);
                    }
                }
            }
            return received;
        }
        finally
        {
            participant.close();
        }
    }
}
