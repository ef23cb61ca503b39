package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import avionics.AirData;
import avionics.AirDataFlat;
import io.sirocco.dds.loan.InPlaceDataReader;
import io.sirocco.dds.loan.LoaningDataWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * The zero-copy extension with an IDL-generated fixed-size type (avionics::AirData): a writer fills a loaned buffer
 * through the generated flat view and commits it; one reader gets ordinary samples, another reads the bytes in place.
 */
@Timeout(60)
class ZeroCopyLoanTest
{
    private final DomainParticipant participant = Dds.participant();
    private final PolicyFactory pf = Dds.policies();

    @AfterEach
    void close()
    {
        participant.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void loanedFlatSamplesReachOrdinaryAndInPlaceReaders() throws Exception
    {
        final Topic<AirData> topic = participant.createTopic("AirData", AirData.class);
        final DataWriter<AirData> writer = participant.createPublisher().createDataWriter(topic,
            participant.createPublisher().getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable(),
                pf.History().withKeepAll()));
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<AirData> ordinary = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final DataReader<AirData> inPlace = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final List<Double> altitudes = new CopyOnWriteArrayList<>();
        final AirDataFlat view = new AirDataFlat();
        ((InPlaceDataReader)inPlace).setInPlaceListener((bytes, length, time, publication) ->
            altitudes.add(view.wrap(bytes, 0).altitudeFt()));
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 2);

        final LoaningDataWriter<AirData> loaning = (LoaningDataWriter<AirData>)writer;
        final AirDataFlat flat = new AirDataFlat();
        for (int i = 0; i < 10; i++)
        {
            try (LoaningDataWriter.WriteLoan loan = loaning.loan(AirDataFlat.SIZE))
            {
                flat.wrap(loan.segment(), 0).writeHeader().aircraftId((short)(i % 2)).altitudeFt(30_000 + i)
                    .airspeedKt(250).timestampNs(i);
                loan.commit();
            }
        }
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        final List<Sample<AirData>> samples = ordinary.take(new ArrayList<>());
        assertThat(samples).hasSize(10);
        assertThat(samples).extracting(s -> s.getData().altitudeFt).contains(30_000.0, 30_009.0);
        assertThat(ordinary.lookupInstance(new AirData((short)1, 0, 0, 0, 0, 0, 0, 0)).isNil()).isFalse();
        Dds.await("in-place reader saw all", () -> altitudes.size() == 10);
        assertThat(altitudes).containsExactly(30_000.0, 30_001.0, 30_002.0, 30_003.0, 30_004.0, 30_005.0, 30_006.0,
            30_007.0, 30_008.0, 30_009.0);
        assertThat(inPlace.read(new ArrayList<>())).isEmpty();
    }
}
