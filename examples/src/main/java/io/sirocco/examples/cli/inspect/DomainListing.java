package io.sirocco.examples.cli.inspect;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.Partition;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.BuiltinTopicKey;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;
import org.omg.dds.topic.TopicBuiltinTopicData;

/**
 * What a participant's built-in readers (DCPSParticipant, DCPSTopic, DCPSPublication, DCPSSubscription) know of its
 * domain, read without taking and printed as four sections. Only ALIVE instances count: a disposed writer or a
 * participant that left is gone from the listing.
 */
public final class DomainListing
{
    private final List<ParticipantBuiltinTopicData> participants;
    private final List<TopicBuiltinTopicData> topics;
    private final List<PublicationBuiltinTopicData> writers;
    private final List<SubscriptionBuiltinTopicData> readers;

    private DomainListing(final DomainParticipant participant)
    {
        participants = alive(participant.getBuiltinSubscriber().lookupDataReader("DCPSParticipant"));
        topics = alive(participant.getBuiltinSubscriber().lookupDataReader("DCPSTopic"));
        writers = alive(participant.getBuiltinSubscriber().lookupDataReader("DCPSPublication"));
        readers = alive(participant.getBuiltinSubscriber().lookupDataReader("DCPSSubscription"));
    }

    /** What the participant's built-in readers hold now. */
    public static DomainListing of(final DomainParticipant participant)
    {
        return new DomainListing(participant);
    }

    public List<PublicationBuiltinTopicData> writers()
    {
        return writers;
    }

    private static <T> List<T> alive(final DataReader<T> reader)
    {
        final List<T> data = new ArrayList<>();
        for (final Sample<T> s : reader.read(new ArrayList<>()))
        {
            if (s.getData() != null && s.getInstanceState() == InstanceState.ALIVE)
            {
                data.add(s.getData());
            }
        }
        return data;
    }

    public void print(final PrintStream out)
    {
        out.println("participants (" + participants.size() + ", this one included):");
        for (final ParticipantBuiltinTopicData p : participants)
        {
            out.println("  " + key(p.getKey()));
        }
        out.println("topics (" + topics.size() + "):");
        for (final TopicBuiltinTopicData t : topics)
        {
            out.println("  " + t.getName() + "  type " + t.getTypeName() + "  "
                + policies(t::getReliability, t::getDurability, t::getOwnership, t::getLiveliness, null));
        }
        out.println("writers (" + writers.size() + "):");
        for (final PublicationBuiltinTopicData w : writers)
        {
            out.println("  " + w.getTopicName() + "  type " + w.getTypeName() + "  participant "
                + key(w.getParticipantKey()) + "  "
                + policies(w::getReliability, w::getDurability, w::getOwnership, w::getLiveliness, w::getPartition));
        }
        out.println("readers (" + readers.size() + "):");
        for (final SubscriptionBuiltinTopicData r : readers)
        {
            out.println("  " + r.getTopicName() + "  type " + r.getTypeName() + "  participant "
                + key(r.getParticipantKey()) + "  "
                + policies(r::getReliability, r::getDurability, r::getOwnership, r::getLiveliness, r::getPartition));
        }
    }

    private static String policies(final Supplier<Reliability> reliability, final Supplier<Durability> durability,
        final Supplier<Ownership> ownership, final Supplier<Liveliness> liveliness,
        final Supplier<Partition> partition)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(policy(() -> reliability.get().getKind())).append(' ')
            .append(policy(() -> durability.get().getKind())).append(' ')
            .append(policy(() -> ownership.get().getKind())).append(" liveliness ")
            .append(policy(() -> liveliness.get().getKind()));
        if (partition != null)
        {
            final String names = policy(() -> String.join(",", partition.get().getName()));
            sb.append(" partition [").append(names).append(']');
        }
        return sb.toString();
    }

    /** A policy's value, or {@code ?} when the discovery data does not carry it. */
    private static String policy(final Supplier<Object> value)
    {
        try
        {
            final Object v = value.get();
            return v == null ? "?" : v.toString();
        }
        catch (final RuntimeException ex)
        {
            return "?";
        }
    }

    static String key(final BuiltinTopicKey key)
    {
        final StringBuilder sb = new StringBuilder();
        for (final int v : key.getValue())
        {
            sb.append(String.format(Locale.ROOT, "%08x", v));
        }
        return sb.toString();
    }
}
