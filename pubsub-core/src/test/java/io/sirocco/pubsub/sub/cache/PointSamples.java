package io.sirocco.pubsub.sub.cache;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.topic.SampleOps;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;

/**
 * The keyed sample type the reader-cache tests and benchmark insert directly (no deserialization), and a KEEP_ALL
 * cache of it with default resource limits whose every rejection fails the caller.
 */
final class PointSamples
{
    private PointSamples()
    {
    }

    /** The sample type: a key and a value. */
    static final class Point
    {
        long key;
        long x;
    }

    /** A keyed, KEEP_ALL cache of {@link Point}s; a rejected sample throws {@link IllegalStateException}. */
    static ReaderHistoryCache<Point> newCache()
    {
        final ServiceEnvironment env = new SiroccoServiceEnvironment();
        return new ReaderHistoryCache<>(env, new PointOps(), (reason, handle) ->
        {
            throw new IllegalStateException("rejected: " + reason);
        }, true, 1, PolicyFactory.getPolicyFactory(env).ResourceLimits(), new ArrivalFilters(false, false));
    }

    /** Copying only: callers insert samples they filled themselves. */
    private static final class PointOps implements SampleOps<Point>
    {
        @Override
        public Point newSample()
        {
            return new Point();
        }

        @Override
        public Point copy(final Point sample)
        {
            final Point copy = new Point();
            copy.key = sample.key;
            copy.x = sample.x;
            return copy;
        }

        @Override
        public boolean isKeyed()
        {
            return true;
        }

        @Override
        public Point deserialize(final BusMessage message, final Point reuse)
        {
            throw new UnsupportedOperationException("Point samples are inserted filled, never deserialized");
        }
    }
}
