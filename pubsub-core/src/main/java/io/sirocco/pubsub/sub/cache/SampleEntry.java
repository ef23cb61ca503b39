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
    long publicationGuid;
    int disposedGen;
    int noWritersGen;
    int loans;
    boolean removed;
}
