package io.sirocco.pubsub.sub.cache;

/**
 * The bit layout of a reader's data-state masks (sample, view and instance state), shared by the cache that selects
 * samples with them and by {@code DataStateImpl}, the DDS face that builds them. Constants only.
 */
public final class DataStateBits
{
    public static final int SAMPLE_READ = 1;
    public static final int SAMPLE_NOT_READ = 2;
    public static final int VIEW_NEW = 1;
    public static final int VIEW_NOT_NEW = 2;
    public static final int INSTANCE_ALIVE = 1;
    public static final int INSTANCE_DISPOSED = 2;
    public static final int INSTANCE_NO_WRITERS = 4;

    private DataStateBits()
    {
    }
}
