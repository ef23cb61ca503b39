package io.sirocco.examples.cli;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.inspect.DomainListing;
import io.sirocco.examples.cli.inspect.SampleText;
import io.sirocco.examples.cli.inspect.TypeLookup;
import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.Topic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sirocco spy TOPIC}: prints the samples of a topic as they arrive, field by field (RTI's {@code rtiddsspy}).
 * It waits for a writer of the topic (DCPSPublication), takes the type name from it, and reads with the writer's
 * reliability. Discovery names the type but does not describe it (no XTypes TypeObject yet), so spy decodes types
 * whose generated classes are on its class path ({@link TypeLookup}): the examples' and the perf commands' types are.
 *
 * <p>Exit codes: 0 when {@code --count} samples were printed (or, without {@code --count}, at the end of
 * {@code --seconds}), 1 when no writer appeared, the type is unknown, or fewer samples came.
 */
@Command(name = "spy", mixinStandardHelpOptions = true,
    description = "Print the samples of a topic as they arrive, field by field.")
public final class SpyCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic's name")
    String topicName;

    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--count", defaultValue = "0", converter = OptionValues.NonNegativeLong.class,
        description = "stop after this many samples; 0 = run until --seconds (default ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--seconds", defaultValue = "60", converter = OptionValues.Positive.class,
        description = "give up after (default ${DEFAULT-VALUE})")
    int seconds;

    @Override
    public Integer call() throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try (PerfSession session = dds.session())
        {
            final Optional<PublicationBuiltinTopicData> writer = awaitWriter(session, deadlineNs);
            if (writer.isEmpty())
            {
                System.err.println("spy: no writer of topic '" + topicName + "' appeared on domain " + dds.domain
                    + " within " + seconds + " s");
                return 1;
            }
            final String typeName = writer.get().getTypeName();
            final TypeLookup types = new TypeLookup(SpyCommand.class.getClassLoader(), List.of("shapes"));
            final Optional<Class<?>> type = types.find(typeName);
            if (type.isEmpty())
            {
                System.err.println("spy: topic '" + topicName + "' has type '" + typeName + "'; discovery names the "
                    + "type but does not describe it, so spy needs its generated class on the class path (tried "
                    + String.join(", ", types.candidates(typeName)) + ")");
                return 1;
            }
            final boolean reliable = writer.get().getReliability().getKind() == Reliability.Kind.RELIABLE;
            System.out.println("spy: topic '" + topicName + "', type " + typeName + " (" + type.get().getName()
                + "), " + (reliable ? "RELIABLE" : "BEST_EFFORT"));
            final long printed = print(session, type.get(), reliable, deadlineNs);
            return count == 0 || printed >= count ? 0 : 1;
        }
    }

    private Optional<PublicationBuiltinTopicData> awaitWriter(final PerfSession session, final long deadlineNs)
    {
        while (System.nanoTime() < deadlineNs)
        {
            for (final PublicationBuiltinTopicData w : DomainListing.of(session.participant()).writers())
            {
                if (w.getTopicName().equals(topicName))
                {
                    return Optional.of(w);
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        return Optional.empty();
    }

    /** Prints samples until {@code --count} or the deadline; returns how many. */
    private <T> long print(final PerfSession session, final Class<T> type, final boolean reliable,
        final long deadlineNs) throws Exception
    {
        final Topic<T> topic = session.participant().createTopic(topicName, type);
        final DataReader<T> reader = session.subscriber().createDataReader(topic, session.readerQos(reliable, true));
        final WaitSet waitSet = WaitSet.newWaitSet(session.participant().getEnvironment());
        waitSet.attachCondition(reader.createReadCondition(session.subscriber().createDataState()
            .withAnySampleState().withAnyViewState().withAnyInstanceState()));
        long printed = 0;
        while ((count == 0 || printed < count) && System.nanoTime() < deadlineNs)
        {
            try
            {
                waitSet.waitForConditions(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            catch (final TimeoutException ex)
            {
                break;
            }
            try (Sample.Iterator<T> samples = reader.take())
            {
                while (samples.hasNext() && (count == 0 || printed < count))
                {
                    final Sample<T> s = samples.next();
                    printed++;
                    System.out.println(topicName + " #" + printed + " " + (s.getData() == null
                        ? s.getInstanceState().toString() : SampleText.of(s.getData())));
                }
            }
        }
        return printed;
    }
}
