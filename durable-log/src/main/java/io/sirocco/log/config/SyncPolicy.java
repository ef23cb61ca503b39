package io.sirocco.log.config;

/**
 * When a backup acknowledges an entry. An acknowledgement is never sent before its policy is met.
 */
public enum SyncPolicy
{
    /** Acknowledged once the entry is in the write buffer (memory). What TRANSIENT durability uses. */
    NONE,
    /** Group commit: acknowledged after the flush cycle that wrote the entry has been fsync'ed. PERSISTENT. */
    GROUP,
    /** Each append waits for its own flush and fsync before it returns; one fsync per appending call. */
    EACH;

    /** Parses {@code none|group|each}, case-insensitive. */
    public static SyncPolicy parse(final String text)
    {
        return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
