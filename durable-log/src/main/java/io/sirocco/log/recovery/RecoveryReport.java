package io.sirocco.log.recovery;

import java.util.List;

import io.sirocco.log.zone.ZoneId;

/**
 * Outcome of recovering one zone: entries delivered, keys found deleted, entries scanned, segments and bytes read,
 * the highest sequence delivered, every damaged region found, and the elapsed time.
 */
public record RecoveryReport(
    ZoneId zone,
    long recoveredEntries,
    long deletedKeys,
    long scannedEntries,
    int segments,
    long bytesRead,
    long maxSequence,
    List<Damage> damages,
    int threads,
    long elapsedNs)
{
    public boolean damaged()
    {
        return !damages.isEmpty();
    }
}
