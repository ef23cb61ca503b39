package io.sirocco.pubsub.durability;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

import io.sirocco.transport.config.Settings;
import org.omg.dds.core.policy.Durability;

/**
 * A durable writer's configured identity ({@value #KEY}): the writer GUID is derived from it and the topic name, so a
 * new process's TRANSIENT writer of the same topic with the same identity <em>is</em> the dead writer, and resumes
 * its recovered history ({@link WriterTakeover}). Without the setting a writer's GUID is its participant's, as always.
 *
 * <p>A derived GUID's low 20 bits are {@code 0xFFFFF}, an entity index a participant never hands out (it stops at
 * {@code 0xFFFFE}), so it never clashes with a counted GUID; its high 44 bits are a 64-bit FNV-1a hash of the identity
 * and the topic name. Stateless.
 */
public final class WriterIdentity
{
    public static final String KEY = "sirocco.dds.durability.identity";
    /** How long a writer with an identity waits to discover a served history of its GUID (ms). */
    public static final String TAKEOVER_WAIT = "sirocco.dds.durability.takeover.ms";
    private static final long DERIVED_INDEX = 0xFFFFFL;

    private WriterIdentity()
    {
    }

    /** The GUID of a TRANSIENT (or stronger) writer of {@code topicName} when an identity is configured, else empty. */
    public static OptionalLong guidFor(final String topicName, final Durability.Kind kind)
    {
        final String identity = Settings.string(KEY, "");
        if (identity.isEmpty() || kind.ordinal() < Durability.Kind.TRANSIENT.ordinal())
        {
            return OptionalLong.empty();
        }
        return OptionalLong.of(guidOf(identity, topicName));
    }

    /** The GUID of the writer with this identity on this topic. */
    public static long guidOf(final String identity, final String topicName)
    {
        long hash = 0xcbf29ce484222325L;
        for (final byte b : (identity + '\u0000' + topicName).getBytes(StandardCharsets.UTF_8))
        {
            hash = (hash ^ (b & 0xFF)) * 0x100000001b3L;
        }
        return hash & ~DERIVED_INDEX | DERIVED_INDEX;
    }

    /** Whether a writer GUID was derived from an identity (its writer may be a replacement). */
    public static boolean isDerived(final long guid)
    {
        return (guid & DERIVED_INDEX) == DERIVED_INDEX;
    }

    /** The configured wait for a served history of a derived GUID, in milliseconds. */
    public static long takeoverWaitMs()
    {
        return Settings.intValue(TAKEOVER_WAIT, 3000);
    }
}
