package io.sirocco.pubsub.sub.cache;

/**
 * What one read or take selects from a {@link ReaderHistoryCache}: the state masks ({@link DataStateBits}), how many
 * samples at most, and which instance. Implemented by the DDS Selector, so a read allocates no query object.
 */
public interface ReadSpec
{
    int sampleMask();

    int viewMask();

    int instanceMask();

    /** At most this many samples ({@code Integer.MAX_VALUE} for no limit). */
    int sampleLimit();

    /** The instance to read (0 for every instance), or with {@link #nextInstanceFlag} the one to read after. */
    long instanceValue();

    /** Read the first instance after {@link #instanceValue} that has a selected sample. */
    boolean nextInstanceFlag();

    /**
     * Whether a sample with this data is selected (a content query, DDS-SQL); {@code data} is null for an invalid
     * sample (a state change without data). Called under the reader's lock.
     */
    default boolean selectsData(final Object data)
    {
        return true;
    }
}
