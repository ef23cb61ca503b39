package example;

import chat.Message;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Receives COUNT chat messages (waiting at most 60 s) and exits 0 when all arrived in order. */
public final class ChatSubscriber
{
    public static void main(final String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        final ServiceEnvironment env = ServiceEnvironment.createInstance(ChatSubscriber.class.getClassLoader());
        final PolicyFactory policies = PolicyFactory.getPolicyFactory(env);
        int received = 0;
        try (DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(0))
        {
            final Topic<Message> topic = participant.createTopic("Chat", Message.class);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<Message> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
                .withPolicies(policies.Reliability().withReliable(), policies.History().withKeepAll()));
            final WaitSet waitSet = WaitSet.newWaitSet(env);
            waitSet.attachCondition(reader.createReadCondition(subscriber.createDataState().withAnySampleState()
                .withAnyViewState().withAnyInstanceState()));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received < count && System.nanoTime() < deadline)
            {
                try
                {
                    waitSet.waitForConditions(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
                catch (final TimeoutException timedOut)
                {
                    break;
                }
                try (Sample.Iterator<Message> samples = reader.take())
                {
                    while (samples.hasNext())
                    {
                        final Message m = samples.next().getData();
                        if (m != null && m.seq != ++received)
                        {
                            throw new IllegalStateException("expected message " + received + ", got " + m.seq);
                        }
                    }
                }
            }
        }
        System.out.println("received " + received + " of " + count);
        System.exit(received == count ? 0 : 1);
    }
}
