package io.sirocco.pubsub.qos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.junit.jupiter.api.Test;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.Reliability;

class MatchingTest
{
    private static EndpointRecord endpoint(final int kind, final int reliability, final int durability,
        final List<String> partitions)
    {
        return new EndpointRecord(kind, 1L << 20 | kind, 1L << 20, "T", "Type", "x.Type", reliability, 0, durability,
            Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false, 0, 1, partitions, new byte[0], "", 0);
    }

    @Test
    void offeredMustBeAtLeastRequested()
    {
        final EndpointRecord bestEffortWriter = endpoint(EndpointRecord.WRITER, 0, 0, List.of());
        final EndpointRecord reliableTransientLocalReader = endpoint(EndpointRecord.READER, 1, 1, List.of());
        assertThat(Matching.incompatible(bestEffortWriter, reliableTransientLocalReader))
            .containsExactly(Reliability.class, Durability.class);
        assertThat(Matching.incompatible(endpoint(EndpointRecord.WRITER, 1, 1, List.of()),
            endpoint(EndpointRecord.READER, 0, 0, List.of()))).isEmpty();
    }

    @Test
    void partitionsUseTheDefaultPartitionAndGlobs()
    {
        assertThat(Matching.partitionsMatch(List.of(), List.of())).isTrue();
        assertThat(Matching.partitionsMatch(List.of(), List.of(""))).isTrue();
        assertThat(Matching.partitionsMatch(List.of("a"), List.of())).isFalse();
        assertThat(Matching.partitionsMatch(List.of("sensors/a"), List.of("sensors/*"))).isTrue();
        assertThat(Matching.partitionsMatch(List.of("sensors/?"), List.of("sensors/b"))).isTrue();
        assertThat(Matching.partitionsMatch(List.of("sensors/*"), List.of("sensors/?"))).isFalse();
        assertThat(Matching.partitionsMatch(List.of("x", "y"), List.of("z", "y"))).isTrue();
        assertThat(Matching.partitionsMatch(List.of("a.b"), List.of("a*b"))).isTrue();
        assertThat(Matching.partitionsMatch(List.of("axb"), List.of("a.b"))).isFalse();
    }
}
