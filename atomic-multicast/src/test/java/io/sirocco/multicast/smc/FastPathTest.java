package io.sirocco.multicast.smc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.sst.SstLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one-hop shm fast path, stepped by hand (no predicate threads): an ORDERED subgroup of two members on one shared
 * table, rank 0 the only sender, rank 1 a reader. With {@link SpindleOptions#publishOnCommit()} a commit alone makes
 * the message visible; with {@link SpindleOptions#selfReceipt()} the reader delivers it before the sender's own
 * receive trigger ever ran. With the fast path off, the reader needs the sender's send and receive triggers first.
 */
class FastPathTest
{
    private static final int WINDOW = 8;
    private final ShmTestTable table = new ShmTestTable("fastpath", 2);

    @AfterEach
    void close() throws java.io.IOException
    {
        table.close();
    }


    private SubgroupEngine engine(final int rank, final SpindleOptions options, final DeliveryHandler handler)
    {
        final SstLayout layout = new SstLayout(new int[] {1}, new int[] {WINDOW}, new int[] {64}, new int[] {64});
        return new SubgroupEngine("t", DeliveryMode.ORDERED, WINDOW, 64, 64, 0, layout, new int[] {0},
            new long[] {100}, new int[] {0, 1}, rank, table.open(rank, layout), options, handler, () -> { });
    }

    @Test
    void shouldDeliverAfterOneHopWhenTheFastPathIsOn()
    {
        final FirstWordRecorder atReader = new FirstWordRecorder();
        final SubgroupEngine sender = engine(0, SpindleOptions.ALL_ON, new FirstWordRecorder());
        final SubgroupEngine reader = engine(1, SpindleOptions.ALL_ON, atReader);
        for (long v = 1; v <= 3 * WINDOW; v++)
        {
            ShmTestTable.sendWord(sender, v);
            // Only the reader's triggers run for this message: the commit published it, the reader delivers it.
            assertThat(reader.receiveTrigger()).isTrue();
            assertThat(reader.deliveryTrigger()).isTrue();
            assertThat(atReader.values).last().isEqualTo(v);
            // The sender's own triggers then free its slot (window of 8, 24 messages: the ring wraps twice).
            sender.sendTrigger();
            sender.receiveTrigger();
            sender.deliveryTrigger();
        }
        assertThat(atReader.values).hasSize(3 * WINDOW).isSorted();
    }

    @Test
    void shouldWaitForTheSenderWhenTheFastPathIsOff()
    {
        final SpindleOptions off = SpindleOptions.ALL_ON.withFastPath(false);
        final FirstWordRecorder atReader = new FirstWordRecorder();
        final SubgroupEngine sender = engine(0, off, new FirstWordRecorder());
        final SubgroupEngine reader = engine(1, off, atReader);
        ShmTestTable.sendWord(sender, 7);
        assertThat(reader.receiveTrigger()).as("nothing published before the send trigger").isFalse();
        reader.deliveryTrigger();
        assertThat(atReader.values).as("nothing delivered before the sender's send trigger").isEmpty();
        // The send trigger publishes the slot and, with receive batching, takes the sender's own slot (its SEQ).
        assertThat(sender.sendTrigger()).isTrue();
        assertThat(reader.receiveTrigger()).isTrue();
        assertThat(reader.deliveryTrigger()).isTrue();
        assertThat(atReader.values).containsExactly(7L);
    }

    @Test
    void shouldWaitForTheSendersOwnReceiptWithoutSelfReceipt()
    {
        // publishOnCommit on, selfReceipt off: the reader sees the slot at once but may not deliver it until the
        // sender has counted its own message as received (its SEQ), which the sender's send trigger does.
        final SpindleOptions noSelfReceipt = new SpindleOptions(true, true, true, true, true, false, true);
        final FirstWordRecorder atReader = new FirstWordRecorder();
        final SubgroupEngine sender = engine(0, noSelfReceipt, new FirstWordRecorder());
        final SubgroupEngine reader = engine(1, noSelfReceipt, atReader);
        ShmTestTable.sendWord(sender, 9);
        assertThat(reader.receiveTrigger()).as("the commit published the slot").isTrue();
        reader.deliveryTrigger();
        assertThat(atReader.values).as("not stable before the sender received its own message").isEmpty();
        assertThat(sender.sendTrigger()).isTrue();
        assertThat(reader.deliveryTrigger()).isTrue();
        assertThat(atReader.values).containsExactly(9L);
    }
}
