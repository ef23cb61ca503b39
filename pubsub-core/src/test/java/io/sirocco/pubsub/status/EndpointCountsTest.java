package io.sirocco.pubsub.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.HandleImpl;
import org.junit.jupiter.api.Test;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.core.status.SubscriptionMatchedStatus;

/** The matched and incompatible-QoS counters a DataWriter and a DataReader keep. */
class EndpointCountsTest
{
    private final SiroccoServiceEnvironment env = new SiroccoServiceEnvironment();

    @Test
    void shouldCountAnIncompatibleEndpointOnceUntilItIsGone()
    {
        final IncompatibleQosCounts counts = new IncompatibleQosCounts();
        assertThat(counts.add(7, List.of(Reliability.class, Durability.class))).isTrue();
        assertThat(counts.add(7, List.of(Reliability.class))).isFalse();
        assertThat(counts.add(8, List.of(Durability.class))).isTrue();

        final OfferedIncompatibleQosStatus first = counts.offered(env);
        assertThat(first.getTotalCount()).isEqualTo(2);
        assertThat(first.getTotalCountChange()).isEqualTo(2);
        assertThat(first.getLastPolicyClass()).isEqualTo(Durability.class);
        assertThat(first.getPolicies()).extracting(QosPolicyCount::getPolicyClass, QosPolicyCount::getCount)
            .containsExactlyInAnyOrder(tuple(Reliability.class, 1), tuple(Durability.class, 2));

        counts.remove(7);
        assertThat(counts.add(7, List.of(Reliability.class))).isTrue();
        final RequestedIncompatibleQosStatus second = counts.requested(env);
        assertThat(second.getTotalCount()).isEqualTo(3);
        assertThat(second.getTotalCountChange()).isEqualTo(1);
        assertThat(second.getLastPolicyClass()).isEqualTo(Reliability.class);
    }

    @Test
    void shouldResetOnlyTheChangeCountsWhenAMatchedStatusIsRead()
    {
        final MatchedCounts counts = new MatchedCounts();
        counts.matched(1);
        counts.matched(2);
        counts.unmatched(1);
        assertThat(counts.current()).isEqualTo(1);
        assertThat(counts.last()).isEqualTo(1);

        final PublicationMatchedStatus first = counts.publication(env);
        assertThat(first.getTotalCount()).isEqualTo(2);
        assertThat(first.getTotalCountChange()).isEqualTo(2);
        assertThat(first.getCurrentCount()).isEqualTo(1);
        assertThat(first.getCurrentCountChange()).isEqualTo(1);

        counts.unmatched(2);
        final SubscriptionMatchedStatus second = counts.subscription(env);
        assertThat(second.getTotalCount()).isEqualTo(2);
        assertThat(second.getTotalCountChange()).isZero();
        assertThat(second.getCurrentCount()).isZero();
        assertThat(second.getCurrentCountChange()).isEqualTo(-1);
        assertThat(second.getLastPublicationHandle()).isEqualTo(new HandleImpl(env, 2));
    }
}
