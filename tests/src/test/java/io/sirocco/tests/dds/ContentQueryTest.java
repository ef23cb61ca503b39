package io.sirocco.tests.dds;

import avionics.AirData;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * QueryCondition and Selector.Content over each transport: a query selects cached samples by content (the rest stay
 * in the cache), a QueryCondition triggers only while a sample passes its query and wakes a WaitSet, and
 * setQueryParameters changes what it selects.
 */
@Timeout(180)
class ContentQueryTest
{
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm", "tcp"})
    void queriesSelectByContent(final String transport) throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", transport,
            "sirocco.dds.interface", "lo"));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pubSide = participants.create();
            final DomainParticipant subSide = participants.create();
            final Subscriber subscriber = subSide.createSubscriber();
            final DataReader<AirData> reader = subscriber.createDataReader(subSide.createTopic("Query", AirData.class),
                subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(),
                    pf.History().withKeepAll()));
            final Publisher publisher = pubSide.createPublisher();
            final DataWriter<AirData> writer = publisher.createDataWriter(pubSide.createTopic("Query", AirData.class),
                publisher.getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable()
                    .withMaxBlockingTime(60, TimeUnit.SECONDS), pf.History().withKeepAll()));
            Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);

            final QueryCondition<AirData> highCondition = reader.createQueryCondition(
                subscriber.createDataState().withAnySampleState().withAnyViewState().withAnyInstanceState(),
                "altitudeFt >= %0", List.of("1000"));
            assertThat(highCondition.getQueryExpression()).isEqualTo("altitudeFt >= %0");
            final WaitSet waitSet = WaitSet.newWaitSet(env);
            waitSet.attachCondition(highCondition);
            for (int i = 0; i < 20; i++)
            {
                writer.write(new AirData((short)(i % 2), i * 10, 0, 0, 0, 0, 0, i));
            }
            Dds.await("all 20 cached", () -> reader.read(new ArrayList<>()).size() == 20);
            assertThat(highCondition.getTriggerValue()).as("no sample reaches 1000 ft").isFalse();

            final List<Sample<AirData>> low = reader.select().Content("altitudeFt < 50 AND aircraftId = %0",
                List.of("0")).take(new ArrayList<>());
            assertThat(low).extracting(s -> s.getData().altitudeFt).containsExactlyInAnyOrder(0.0, 20.0, 40.0);
            assertThat(reader.read(new ArrayList<>())).as("the other samples stay").hasSize(17);

            highCondition.setQueryParameters(List.of("150"));
            assertThat(highCondition.getQueryParameters()).containsExactly("150");
            assertThat(highCondition.getTriggerValue()).isTrue();
            writer.write(new AirData((short)1, 5000, 0, 0, 0, 0, 0, 99));
            highCondition.setQueryParameters(List.of("4000"));
            waitSet.waitForConditions(Duration.newDuration(60, TimeUnit.SECONDS, env));
            final DataReader.Selector<AirData> selector = reader.select().Content("altitudeFt >= %0",
                List.of("4000"));
            Dds.await("the 5000 ft sample", () -> !selector.read(new ArrayList<>()).isEmpty());
            assertThat(selector.take(new ArrayList<>())).extracting(s -> s.getData().altitudeFt)
                .containsExactly(5000.0);
            assertThat(highCondition.getTriggerValue()).isFalse();
            assertThat(selector.getCondition()).isInstanceOf(QueryCondition.class);
            assertThatThrownBy(() -> reader.select().Content("altitudeFt >= 'high'", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("altitudeFt");
            waitSet.detachCondition(highCondition);
            highCondition.close();
        }
    }
}
