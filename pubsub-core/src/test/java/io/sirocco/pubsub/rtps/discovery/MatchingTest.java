package io.sirocco.pubsub.rtps.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Matching a local endpoint with a remote one: direction, topic, type, partition and reliability (RxO). */
class MatchingTest
{
    private static final GuidPrefix REMOTE = new GuidPrefix(0x0110_0000_0000_0001L, 2);

    private static LocalEndpoint writer(final boolean reliable, final String... partitions)
    {
        return new LocalEndpoint(0x102, true, "T", "KeyedSeq", reliable, List.of(partitions));
    }

    private static DiscoveredEndpoint reader(final boolean reliable, final String... partitions)
    {
        return new DiscoveredEndpoint(REMOTE, 0x107, false, "T", "KeyedSeq", reliable, List.of(partitions));
    }

    @Test
    void sameTopicTypeAndDefaultPartitionMatch()
    {
        assertThat(Matching.matches(writer(true), reader(true))).isTrue();
        assertThat(Matching.matches(writer(true), reader(false))).isTrue();
    }

    @Test
    void aBestEffortWriterDoesNotServeAReliableReader()
    {
        assertThat(Matching.matches(writer(false), reader(true))).isFalse();
        assertThat(Matching.matches(writer(false), reader(false))).isTrue();
    }

    @Test
    void partitionsMustShareAName()
    {
        assertThat(Matching.matches(writer(true, "a", "b"), reader(true, "b"))).isTrue();
        assertThat(Matching.matches(writer(true, "a"), reader(true, "b"))).isFalse();
        assertThat(Matching.matches(writer(true, "a"), reader(true))).isFalse();
        assertThat(Matching.matches(writer(true), reader(true, "a"))).isFalse();
    }

    @Test
    void topicTypeAndDirectionMustAgree()
    {
        final DiscoveredEndpoint otherTopic = new DiscoveredEndpoint(REMOTE, 0x107, false, "U", "KeyedSeq", true,
            List.of());
        final DiscoveredEndpoint otherType = new DiscoveredEndpoint(REMOTE, 0x107, false, "T", "Keyed32", true,
            List.of());
        final DiscoveredEndpoint aWriter = new DiscoveredEndpoint(REMOTE, 0x102, true, "T", "KeyedSeq", true,
            List.of());
        assertThat(Matching.matches(writer(true), otherTopic)).isFalse();
        assertThat(Matching.matches(writer(true), otherType)).isFalse();
        assertThat(Matching.matches(writer(true), aWriter)).isFalse();
    }
}
