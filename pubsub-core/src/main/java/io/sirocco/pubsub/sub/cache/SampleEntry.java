package io.sirocco.pubsub.sub.cache;

/**
 * One sample in a reader's cache, owned by the reader's cache lock. {@code loans} counts loaned samples that
 * reference {@code data}; while it is non-zero the data object is not recycled.
 */
final class SampleEntry<T>
{
    T data;
    boolean valid;
    boolean read;
    long sourceTimeNs;
    /** When a valid sample's LIFESPAN ends (epoch ns), {@link LifespanFilter#NEVER} if it does not. */
    long expiresNs;
    long publicationGuid;
    int disposedGen;
    int noWritersGen;
    int loans;
    boolean removed;

    /** Whether its sample state matches this {@link DataStateBits} mask. */
    boolean selectedBy(final int sampleMask)
    {
        return (sampleMask & (read ? DataStateBits.SAMPLE_READ : DataStateBits.SAMPLE_NOT_READ)) != 0;
    }
}
