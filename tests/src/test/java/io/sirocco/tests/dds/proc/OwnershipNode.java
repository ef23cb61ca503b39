package io.sirocco.tests.dds.proc;

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
import org.omg.dds.topic.Topic;

/**
 * A child process for the ownership failover test: {@code <domain> <strength>} makes an EXCLUSIVE writer of that
 * OWNERSHIP_STRENGTH on topic {@code Ownership}, prints {@code JOINED}, then {@code MATCHED} once a reader matched,
 * then writes the RED instance every 2 ms with {@code x = strength * 1_000_000 + n} (n = 1, 2, ...), so that a reader
 * can tell whose sample it got, and prints {@code SENT n} every 100 samples.
 */
public final class OwnershipNode
{
    private OwnershipNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(OwnershipNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[0]));
        System.out.println("JOINED");
        System.out.flush();
        final int strength = Integer.parseInt(args[1]);
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("Ownership", Shape.class);
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.History().withKeepLast(1), pf.Ownership().withExclusive(),
                pf.OwnershipStrength().withValue(strength)));
        while (writer.getPublicationMatchedStatus().getCurrentCount() < 1)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        System.out.println("MATCHED");
        System.out.flush();
        final Shape shape = new Shape("RED", 0, 0, 10);
        for (int n = 1; ; n++)
        {
            shape.x = strength * 1_000_000 + n;
            writer.write(shape);
            if (n % 100 == 0)
            {
                System.out.println("SENT " + n);
                System.out.flush();
            }
            LockSupport.parkNanos(2_000_000L); // the writer's pace: one sample every 2 ms
        }
    }
}
