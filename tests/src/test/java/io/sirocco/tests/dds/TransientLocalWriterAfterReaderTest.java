package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;

/**
 * The hello-world pattern (the in-JVM ExamplesTest that once received nothing in CI): a TRANSIENT_LOCAL writer
 * created after a TRANSIENT_LOCAL reader, in a participant that joined the domain first, writes as soon as it is
 * matched. The reader must get every sample. Before LocalDomain told a record's owner last, the writer's participant
 * could match, replay its (empty) history with the end-of-history mark and write before the reader's participant knew
 * the writer: the reader dropped all of it and then waited forever for the mark. A race, so many rounds.
 */
@Timeout(300)
class TransientLocalWriterAfterReaderTest
{
    private static final int ROUNDS = 40;
    private static final int SAMPLES = 3;

    @Test
    void aWriterThatWritesOnceMatchedReachesAnEarlierTransientLocalReader() throws Exception
    {
        final PolicyFactory pf = Dds.policies();
        for (int round = 0; round < ROUNDS; round++)
        {
            final DomainParticipant pubSide = Dds.participant();
            final DomainParticipant subSide = Dds.participant(pubSide.getDomainId());
            try
            {
                final Subscriber subscriber = subSide.createSubscriber();
                final DataReader<Shape> reader = subscriber.createDataReader(subSide.createTopic("Square",
                    Shape.class), subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(),
                    pf.Durability().withTransientLocal(), pf.History().withKeepAll()));
                final Publisher publisher = pubSide.createPublisher();
                final DataWriter<Shape> writer = publisher.createDataWriter(pubSide.createTopic("Square",
                    Shape.class), publisher.getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable(),
                    pf.Durability().withTransientLocal(), pf.History().withKeepLast(SAMPLES)));
                Dds.await("writer matched (round " + round + ")",
                    () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
                for (int i = 0; i < SAMPLES; i++)
                {
                    writer.write(new Shape("RED", i, round, 1));
                }
                writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
                final List<Integer> got = new ArrayList<>();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (got.size() < SAMPLES && System.nanoTime() < deadline)
                {
                    for (final Sample<Shape> sample : reader.take(new ArrayList<>()))
                    {
                        if (sample.getData() != null)
                        {
                            got.add(sample.getData().x);
                        }
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
                }
                assertThat(got).as("samples of round %d", round).containsExactly(0, 1, 2);
            }
            finally
            {
                subSide.close();
                pubSide.close();
            }
        }
    }
}
