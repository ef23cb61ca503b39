package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.tests.dds.types.Shape;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicDescription;

/**
 * A child process with one RELIABLE KEEP_ALL reader of the topic {@code WriterSideFilter} ({@link Shape}), line by
 * line on stdout. {@code <domain> <expression> [parameters...]}: the reader reads a ContentFilteredTopic with that
 * DDS-SQL filter ({@code -} for a plain reader of the topic). It prints {@code READY} once enabled, {@code X <x>}
 * for each sample taken with {@code y = 0} in the order taken, and {@code END} for the writer's marker
 * ({@code y = 1}); then it runs until killed.
 */
public final class FilteredReaderNode
{
    private FilteredReaderNode()
    {
    }

    public static void main(final String[] args)
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(FilteredReaderNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[0]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic("WriterSideFilter", Shape.class);
        final TopicDescription<Shape> description = args[1].equals("-") ? topic :
            participant.createContentFilteredTopic("WriterSideFiltered", topic, args[1],
                Arrays.asList(args).subList(2, args.length));
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(description,
            subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(),
                pf.History().withKeepAll()));
        System.out.println("READY");
        System.out.flush();
        final List<Sample<Shape>> samples = new ArrayList<>();
        while (true)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                final Shape data = sample.getData();
                if (data != null)
                {
                    System.out.println(data.y == 1 ? "END" : "X " + data.x);
                }
            }
            System.out.flush();
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
