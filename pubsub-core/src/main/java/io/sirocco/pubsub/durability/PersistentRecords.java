package io.sirocco.pubsub.durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.RecordCodec;
import org.omg.dds.core.policy.Durability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery records of PERSISTENT writers, kept by a backup in {@code <its PERSISTENT store>/writers}: after a
 * full-domain restart no participant announces a dead writer any more, yet the backup that recovers its zone must
 * serve it under the writer's topic, type and QoS. One file per writer ({@code <guid>.record}, the discovery
 * encoding), written to a temporary file and renamed.
 *
 * <p>Threads: {@link #save} runs on the participant's discovery thread, {@link #loadInto} once at start; files of
 * different writers are independent, a writer's record is rewritten whole.
 */
final class PersistentRecords
{
    private static final Logger LOG = LoggerFactory.getLogger(PersistentRecords.class);

    private final Path directory;

    PersistentRecords(final Path persistentStore)
    {
        this.directory = persistentStore.resolve("writers");
    }

    /** Keeps the record if it is a PERSISTENT writer's; a failure is logged, the history is still served live. */
    void save(final EndpointRecord record)
    {
        if (!record.isWriter() || record.durabilityKind() != Durability.Kind.PERSISTENT.ordinal())
        {
            return;
        }
        final Path file = directory.resolve(String.format("%016x.record", record.guid()));
        try
        {
            Files.createDirectories(directory);
            final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(temporary, RecordCodec.announce(record));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            LOG.warn("durability: cannot keep the record of PERSISTENT writer {} on topic '{}' in {}: {}; after a "
                + "full-domain restart its history cannot be served", String.format("%016x", record.guid()),
                record.topicName(), file, ex.toString());
        }
    }

    /** Loads the kept records into {@code writers} (by GUID); unreadable files are reported and skipped. */
    void loadInto(final Map<Long, EndpointRecord> writers)
    {
        if (!Files.isDirectory(directory))
        {
            return;
        }
        try (Stream<Path> files = Files.list(directory))
        {
            files.filter(f -> f.getFileName().toString().endsWith(".record")).forEach(file ->
            {
                try
                {
                    final EndpointRecord record = RecordCodec.decode(Files.readAllBytes(file));
                    writers.putIfAbsent(record.guid(), record);
                }
                catch (final IOException | RuntimeException ex)
                {
                    LOG.warn("durability: unreadable writer record {} ({}); its history will not be served", file,
                        ex.toString());
                }
            });
        }
        catch (final IOException ex)
        {
            LOG.warn("durability: cannot list the writer records in {}: {}", directory, ex.toString());
        }
    }
}
