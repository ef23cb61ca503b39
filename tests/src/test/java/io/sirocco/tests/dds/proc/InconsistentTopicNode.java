package io.sirocco.tests.dds.proc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.tests.dds.types.Shape;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.topic.Topic;
import org.omg.dds.type.TypeSupport;

/**
 * One side of an inconsistent topic, for {@code InconsistentTopicProcessTest}: {@code <domain> <type name> <done
 * file>} creates topic {@code Mismatch} for {@link Shape} under the given type name, prints {@code CREATED}, waits for
 * its InconsistentTopicStatus to count a topic and prints {@code INCONSISTENT <total count>}, then waits for the done
 * file, prints {@code DONE <total count>} and closes its participant. Every wait is bounded (120 s; exit 3).
 */
public final class InconsistentTopicNode
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);

    private InconsistentTopicNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(InconsistentTopicNode.class.getClassLoader());
        final Path done = Path.of(args[2]);
        try (DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[0])))
        {
            final Topic<Shape> topic = participant.createTopic("Mismatch",
                TypeSupport.newTypeSupport(Shape.class, args[1], env));
            say("CREATED");
            final int[] total = {0};
            awaitTrue(() -> (total[0] = topic.getInconsistentTopicStatus().getTotalCount()) > 0,
                "an inconsistent topic");
            say("INCONSISTENT " + total[0]);
            awaitTrue(() -> Files.exists(done), "the done file " + done);
            say("DONE " + topic.getInconsistentTopicStatus().getTotalCount());
        }
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what)
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
