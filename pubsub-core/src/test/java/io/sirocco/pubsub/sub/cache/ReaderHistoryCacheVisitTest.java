package io.sirocco.pubsub.sub.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.sub.cache.PointSamples.Point;
import org.junit.jupiter.api.Test;

/**
 * A read or take visits only the instances that hold samples ({@link HoldingInstances}): these check that it still
 * returns what a walk over every instance returned, in instance-handle order, after instances empty, fill again, expire
 * and are forgotten.
 */
class ReaderHistoryCacheVisitTest
{
    private static final long WRITER = 0x0A0B_0C0D_0E0F_1011L;
    private static final int ALL_SAMPLES = DataStateBits.SAMPLE_READ | DataStateBits.SAMPLE_NOT_READ;
    private static final int ALL_VIEWS = DataStateBits.VIEW_NEW | DataStateBits.VIEW_NOT_NEW;
    private static final int ALL_INSTANCES =
        DataStateBits.INSTANCE_ALIVE | DataStateBits.INSTANCE_DISPOSED | DataStateBits.INSTANCE_NO_WRITERS;

    private final ReaderHistoryCache<Point> cache = PointSamples.newCache();
    private long seq;

    @Test
    void aTakeReturnsTheInstancesWithSamplesInHandleOrderNotArrivalOrder()
    {
        for (long key = 0; key < 64; key++)
        {
            write(key, LifespanFilter.NEVER);
        }
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).hasSize(64).isSorted();

        write(40, LifespanFilter.NEVER);
        write(5, LifespanFilter.NEVER);
        write(20, LifespanFilter.NEVER);
        write(5, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(5L, 5L, 20L, 40L);
        assertThat(collect(Spec.all(ALL_SAMPLES), true)).isEmpty();
        assertThat(cache.hasSamples(ALL_SAMPLES, ALL_VIEWS, ALL_INSTANCES)).isFalse();
    }

    @Test
    void aReadKeepsTheSamplesAndMarksThemRead()
    {
        write(1, LifespanFilter.NEVER);
        write(2, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(DataStateBits.SAMPLE_NOT_READ), false))).containsExactly(1L, 2L);
        assertThat(collect(Spec.all(DataStateBits.SAMPLE_NOT_READ), false)).isEmpty();
        assertThat(cache.hasSamples(DataStateBits.SAMPLE_NOT_READ, ALL_VIEWS, ALL_INSTANCES)).isFalse();
        assertThat(cache.hasSamples(DataStateBits.SAMPLE_READ, ALL_VIEWS, ALL_INSTANCES)).isTrue();
        write(0, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(1L, 2L, 0L);
    }

    @Test
    void aNextInstanceReadSkipsTheInstancesThatEmptied()
    {
        final List<Long> handles = new ArrayList<>();
        for (long key = 0; key < 10; key++)
        {
            write(key, LifespanFilter.NEVER);
            handles.add(handleOf(collect(Spec.all(ALL_SAMPLES), true).get(0)));
        }
        write(7, LifespanFilter.NEVER);
        write(3, LifespanFilter.NEVER);

        final List<SampleImpl<Point>> first = collect(Spec.next(handles.get(0)), true);
        assertThat(keys(first)).containsExactly(3L);
        assertThat(handleOf(first.get(0))).isEqualTo(handles.get(3));
        assertThat(keys(collect(Spec.next(handles.get(3)), true))).containsExactly(7L);
        assertThat(collect(Spec.next(handles.get(0)), true)).isEmpty();
    }

    @Test
    void aTakeOfOneInstanceLeavesTheOthers()
    {
        write(1, LifespanFilter.NEVER);
        write(2, LifespanFilter.NEVER);
        final long first = handleOf(collect(Spec.all(ALL_SAMPLES), false).get(0));
        assertThat(keys(collect(Spec.one(first), true))).containsExactly(1L);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(2L);
    }

    @Test
    void expiredSamplesAreDroppedAndTheInstanceTakesNewOnes()
    {
        write(1, LifespanFilter.nowNs() - 1_000_000);
        write(2, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(2L);
        assertThat(cache.hasSamples(ALL_SAMPLES, ALL_VIEWS, ALL_INSTANCES)).isFalse();
        write(1, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(1L);
    }

    @Test
    void aDisposedUnregisteredInstanceIsForgottenOnceItsLastSampleIsTaken()
    {
        write(1, LifespanFilter.NEVER);
        final long handle = handleOf(collect(Spec.all(ALL_SAMPLES), true).get(0));
        cache.accept(BusMessage.KIND_DISPOSE | BusMessage.KIND_UNREGISTER, WRITER, 0, ++seq, LifespanFilter.NEVER, 0,
            1, null);
        assertThat(cache.hasInstance(handle)).isTrue();
        final List<SampleImpl<Point>> invalid = collect(Spec.all(ALL_SAMPLES), true);
        assertThat(invalid).hasSize(1);
        assertThat(invalid.get(0).getData()).isNull();
        assertThat(cache.hasInstance(handle)).isFalse();
        write(1, LifespanFilter.NEVER);
        assertThat(keys(collect(Spec.all(ALL_SAMPLES), true))).containsExactly(1L);
    }

    private void write(final long key, final long expiresNs)
    {
        final Point data = new Point();
        data.key = key;
        data.x = ++seq;
        cache.accept(BusMessage.KIND_DATA, WRITER, 0, seq, expiresNs, 0, key, data);
    }

    private List<SampleImpl<Point>> collect(final ReadSpec spec, final boolean take)
    {
        final List<SampleImpl<Point>> out = new ArrayList<>();
        cache.collect(spec, take, out, false);
        return out;
    }

    private static List<Long> keys(final List<SampleImpl<Point>> samples)
    {
        return samples.stream().map(s -> s.getData().key).toList();
    }

    private static long handleOf(final SampleImpl<Point> sample)
    {
        return HandleImpl.valueOf(sample.getInstanceHandle());
    }

    /** Every view and instance state; the sample states, the instance and the walk as given. */
    private record Spec(int sampleMask, long instanceValue, boolean nextInstanceFlag) implements ReadSpec
    {
        static Spec all(final int sampleMask)
        {
            return new Spec(sampleMask, 0, false);
        }

        static Spec next(final long after)
        {
            return new Spec(ALL_SAMPLES, after, true);
        }

        static Spec one(final long handle)
        {
            return new Spec(ALL_SAMPLES, handle, false);
        }

        @Override
        public int viewMask()
        {
            return ALL_VIEWS;
        }

        @Override
        public int instanceMask()
        {
            return ALL_INSTANCES;
        }

        @Override
        public int sampleLimit()
        {
            return Integer.MAX_VALUE;
        }
    }
}
