package example;

import chat.Message;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.topic.Topic;

import java.util.concurrent.TimeUnit;

/** Writes COUNT chat messages once a subscriber is matched. Run with the two JVM settings the README names. */
public final class ChatPublisher
{
    public static void main(final String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        final ServiceEnvironment env = ServiceEnvironment.createInstance(ChatPublisher.class.getClassLoader());
        final PolicyFactory policies = PolicyFactory.getPolicyFactory(env);
        try (DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(0))
        {
            final Topic<Message> topic = participant.createTopic("Chat", Message.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<Message> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(policies.Reliability().withReliable(), policies.History().withKeepAll()));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (writer.getPublicationMatchedStatus().getCurrentCount() == 0 && System.nanoTime() < deadline)
            {
                Thread.sleep(10); // a reliable writer delivers to the readers matched when it writes
            }
            for (int seq = 1; seq <= count; seq++)
            {
                writer.write(new Message(7, seq, "message " + seq));
            }
            writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
            System.out.println("published " + count);
        }
    }
}
