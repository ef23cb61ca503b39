package io.sirocco.log.recovery;

import java.nio.file.Path;

/**
 * A damaged region found while reading a log: the file, the byte offset where it starts, how many bytes were
 * skipped, and why (torn tail, CRC mismatch, malformed header, data after the end marker, missing newest version).
 */
public record Damage(Path file, long offset, long skippedBytes, String reason)
{
    @Override
    public String toString()
    {
        return file + " offset " + offset + " (" + skippedBytes + " bytes skipped): " + reason;
    }
}
