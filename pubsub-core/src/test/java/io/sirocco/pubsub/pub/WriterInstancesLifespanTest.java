package io.sirocco.pubsub.pub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.cache.InstanceKey;
import org.junit.jupiter.api.Test;
import org.omg.dds.core.policy.ResourceLimits;

/**
 * LIFESPAN in a writer's TRANSIENT_LOCAL history (DDS 1.4 §2.2.3.16): a data message whose source timestamp plus the
 * lifespan has passed leaves the history before a replay; younger ones and lifecycle messages stay, in order.
 */
class WriterInstancesLifespanTest
{
    private static final long LIFESPAN_NS = 1_000L;

    @Test
    void expiredDataLeavesTheHistoryLifecycleMessagesStay()
    {
        final WriterInstances<Object> instances = instances(LIFESPAN_NS);
        final WriterInstance<Object> instance = new WriterInstance<>(1, new InstanceKey(), null);
        instances.remember(instance, message(BusMessage.KIND_DATA, 100));
        instances.remember(instance, message(BusMessage.KIND_DISPOSE, 200));
        instances.remember(instance, message(BusMessage.KIND_DATA, 900));
        instances.remember(instance, message(BusMessage.KIND_DATA, 1_500));
        instances.dropExpired(instance, 1_900);
        assertThat(times(instance)).as("100 and 900 expired at 1100 and 1900").containsExactly(200L, 1_500L);
        instances.dropExpired(instance, 2_499);
        assertThat(times(instance)).containsExactly(200L, 1_500L);
        instances.dropExpired(instance, 2_500);
        assertThat(times(instance)).containsExactly(200L);
    }

    @Test
    void anInfiniteLifespanKeepsEverything()
    {
        final WriterInstances<Object> instances = instances(Long.MAX_VALUE);
        final WriterInstance<Object> instance = new WriterInstance<>(1, new InstanceKey(), null);
        instances.remember(instance, message(BusMessage.KIND_DATA, 0));
        instances.remember(instance, message(BusMessage.KIND_DATA, 1));
        instances.dropExpired(instance, Long.MAX_VALUE - 1);
        assertThat(times(instance)).containsExactly(0L, 1L);
    }

    /** KEEP_LAST 10; the environment and codec are not used by the history methods. */
    private static WriterInstances<Object> instances(final long lifespanNs)
    {
        return new WriterInstances<>(null, "writer", null, ResourceLimits.LENGTH_UNLIMITED, false, 10,
            ResourceLimits.LENGTH_UNLIMITED, lifespanNs);
    }

    private static BusMessage message(final int kind, final long sourceTimeNs)
    {
        return new BusMessage(16).kind(kind).sourceTimeNs(sourceTimeNs);
    }

    private static List<Long> times(final WriterInstance<Object> instance)
    {
        final List<Long> times = new ArrayList<>();
        for (final BusMessage message : instance.history)
        {
            times.add(message.sourceTimeNs());
        }
        return times;
    }
}
