package io.sirocco.multicast.smc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.sst.SstLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ragged trim is the only delivery of a wedged view, stepped by hand on one shared table (no predicate threads):
 * an ORDERED subgroup of three members, rank 2 the only sender and the member that fails; ranks 0 and 1 survive.
 *
 * <p>The race this pins down (seen as two survivors of a SIGKILL over tcp/mixed differing by one delivered message):
 * a survivor's receive trigger keeps running after it pushed {@code DRAINED}, and over tcp a frame the failed member
 * sent before it died can still arrive then. The trim was computed without that message, but once every survivor
 * received it, the failed member's frozen row no longer held stability back, so a survivor whose delivery trigger ran
 * before its own install delivered a message above the trim that the others never deliver. Here the shared table
 * stands for the late frame: rank 1 simply takes the message only after the trim was computed.
 */
class WedgedDeliveryTest
{
    private static final int WINDOW = 8;
    private static final boolean[] SURVIVORS = {true, true, false};
    private final ShmTestTable table = new ShmTestTable("wedged", 3);

    @AfterEach
    void close() throws java.io.IOException
    {
        table.close();
    }


    private SubgroupEngine engine(final int rank, final DeliveryHandler handler)
    {
        final SstLayout layout = new SstLayout(new int[] {1}, new int[] {WINDOW}, new int[] {64}, new int[] {64});
        return new SubgroupEngine("t", DeliveryMode.ORDERED, WINDOW, 64, 64, 0, layout, new int[] {2},
            new long[] {102}, new int[] {0, 1, 2}, rank, table.open(rank, layout), SpindleOptions.ALL_ON, handler,
            () -> { });
    }

    @Test
    void shouldNotDeliverAboveTheTrimWhenAMessageArrivesAfterTheDrain()
    {
        final FirstWordRecorder at0 = new FirstWordRecorder();
        final FirstWordRecorder at1 = new FirstWordRecorder();
        final SubgroupEngine r0 = engine(0, at0);
        final SubgroupEngine r1 = engine(1, at1);
        final SubgroupEngine failed = engine(2, new FirstWordRecorder());
        ShmTestTable.sendWord(failed, 7);
        failed.sendTrigger();
        failed.receiveTrigger();
        // Rank 2 is gone from here on. Rank 0 received its message; rank 1's copy is still in flight.
        assertThat(r0.receiveTrigger()).isTrue();
        assertThat(r0.wedge()).isTrue();
        assertThat(r1.wedge()).isTrue();
        r0.leadTrim(SURVIVORS);
        // The late frame: rank 1 receives after the trim (0 messages of rank 2) was computed, and publishes RECEIVED.
        assertThat(r1.receiveTrigger()).isTrue();
        r1.copyTrimFrom(0);
        // Rank 1's delivery trigger runs once more before it delivers the trim; rank 0 installs without another pass.
        r1.deliveryTrigger();
        assertThat(r1.deliverTrim()).isTrue();
        assertThat(r0.deliverTrim()).isTrue();
        assertThat(at1.values).as("survivor rank 1 delivered what survivor rank 0 did").isEqualTo(at0.values);
        assertThat(at0.values).as("the message above the trim is delivered by no survivor").isEmpty();
    }

    @Test
    void shouldDeliverEverythingBelowTheTrimThroughTheTrimOnceWedged()
    {
        final FirstWordRecorder at0 = new FirstWordRecorder();
        final FirstWordRecorder at1 = new FirstWordRecorder();
        final SubgroupEngine r0 = engine(0, at0);
        final SubgroupEngine r1 = engine(1, at1);
        final SubgroupEngine failed = engine(2, new FirstWordRecorder());
        ShmTestTable.sendWord(failed, 1);
        ShmTestTable.sendWord(failed, 2);
        failed.sendTrigger();
        failed.receiveTrigger();
        r0.receiveTrigger();
        r1.receiveTrigger();
        r0.deliveryTrigger();
        assertThat(at0.values).as("stable before the failure: delivered at once").containsExactly(1L, 2L);
        ShmTestTable.sendWord(failed, 3);
        failed.sendTrigger();
        failed.receiveTrigger();
        r0.receiveTrigger();
        r1.receiveTrigger();
        assertThat(r0.wedge()).isTrue();
        assertThat(r1.wedge()).isTrue();
        r0.deliveryTrigger();
        r1.deliveryTrigger();
        assertThat(at0.values).as("nothing more delivered outside the trim once wedged").containsExactly(1L, 2L);
        r0.leadTrim(SURVIVORS);
        r1.copyTrimFrom(0);
        assertThat(r0.deliverTrim()).isTrue();
        assertThat(r1.deliverTrim()).isTrue();
        assertThat(at0.values).as("the trim delivers what every survivor received").containsExactly(1L, 2L, 3L);
        assertThat(at1.values).isEqualTo(at0.values);
    }
}
