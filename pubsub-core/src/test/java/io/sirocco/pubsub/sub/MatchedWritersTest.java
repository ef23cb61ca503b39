package io.sirocco.pubsub.sub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.HandleImpl;
import org.junit.jupiter.api.Test;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.SubscriptionMatchedStatus;

class MatchedWritersTest
{
    private static final long WRITER = 0x10_0001L;
    private final ServiceEnvironment env = new SiroccoServiceEnvironment();
    private final Object statusLock = new Object();
    private final MatchedWriters writers = new MatchedWriters(statusLock);

    private static EndpointRecord writer(final long guid)
    {
        return new EndpointRecord(EndpointRecord.WRITER, guid, guid & ~0xFFFFFL, "T", "T::Type", "t.Type", 1, 100, 1,
            Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false, 0, 1, List.of(), new byte[0], "host", 1);
    }

    private SubscriptionMatchedStatus status()
    {
        synchronized (statusLock)
        {
            return writers.subscriptionStatus(env);
        }
    }

    @Test
    void theMatchedStatusAndTheMatchedSetChangeTogether()
    {
        assertThat(writers.add(writer(WRITER), false)).isNotNull();
        final SubscriptionMatchedStatus matched = status();
        assertThat(matched.getCurrentCount()).isEqualTo(1);
        final long last = HandleImpl.valueOf(matched.getLastPublicationHandle());
        assertThat(writers.handles(env)).containsExactly(new HandleImpl(env, last));
        assertThat(writers.record(last)).isNotNull();

        assertThat(writers.remove(WRITER, false)).isTrue();
        assertThat(status().getCurrentCount()).isZero();
        assertThat(writers.handles(env)).isEmpty();
        assertThat(writers.record(WRITER)).isNull();
        assertThat(writers.get(WRITER)).isNull();
    }

    @Test
    void aWriterMatchedTwiceCountsOnce()
    {
        assertThat(writers.add(writer(WRITER), false)).isNotNull();
        assertThat(writers.add(writer(WRITER), false)).isNull();
        assertThat(status().getTotalCount()).isEqualTo(1);
        assertThat(writers.remove(WRITER, false)).isTrue();
        assertThat(writers.remove(WRITER, false)).isFalse();
        assertThat(status().getCurrentCount()).isZero();
    }

    @Test
    void aFailedWriterThatComesBackKeepsItsDuplicateFilter()
    {
        writers.add(writer(WRITER), false).lastSeq = 20;
        writers.remove(WRITER, true);
        assertThat(writers.add(writer(WRITER), false).lastSeq).isEqualTo(20);
        writers.remove(WRITER, false);
        assertThat(writers.add(writer(WRITER), false).lastSeq).isZero();
    }
}
