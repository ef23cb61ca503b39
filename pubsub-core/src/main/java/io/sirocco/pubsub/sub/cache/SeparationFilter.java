package io.sirocco.pubsub.sub.cache;

/**
 * A DataReader's TIME_BASED_FILTER (DDS 1.4 §2.2.3.12): per instance, a data sample that arrives less than
 * {@code minimum_separation} after the last one the reader accepted for that instance is dropped (the application
 * asked not to see it; it is neither lost nor rejected). Lifecycle changes (dispose, unregister) always pass.
 *
 * <p>Threads: {@link #admits} runs under the reader's lock on its delivery thread (no allocation); the separation is
 * changeable ({@code setQos}) from any thread, hence volatile.
 */
public final class SeparationFilter
{
    private volatile long separationNs;

    /** The minimum separation in nanoseconds; 0 lets every sample through. */
    public void separation(final long nanos)
    {
        separationNs = nanos;
    }

    /** Whether a data sample of {@code instance} arriving now is kept; a kept one starts a new separation. */
    boolean admits(final ReaderInstance<?> instance)
    {
        final long separation = separationNs;
        if (separation == 0)
        {
            return true;
        }
        final long nowNs = System.nanoTime();
        if (instance.separated && nowNs - instance.acceptedNs < separation)
        {
            return false;
        }
        instance.separated = true;
        instance.acceptedNs = nowNs;
        return true;
    }
}
