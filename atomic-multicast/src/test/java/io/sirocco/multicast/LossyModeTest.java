package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class LossyModeTest
{
    /** A reader slower than the writer: it is lapped, never sees a torn slot, and counts exactly what it missed. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm", "tcp", "mixed"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void slowReaderIsLappedNeverTornAndCountsExactly(final String transport) throws Exception
    {
        final int total = 20_000;
        try (TestCluster c = new TestCluster(3, transport, SpindleOptions.ALL_ON,
            i -> List.of(new SubgroupSpec("l", DeliveryMode.UNORDERED_LOSSY, 4, 256, 256)),
            i -> i == 0 ? Role.WRITER : Role.READER))
        {
            // Member 2 is slow: wrap its recorder's work in a delay (its predicate thread stalls in the upcall).
            final TestCluster.Recorder slow = c.recorders.get(2);
            final DelayingRecorder delaying = new DelayingRecorder(slow);
            DelayingRecorder.install(delaying);
            final Group writer = c.groups.get(0);
            final SlotClaim claim = new SlotClaim();
            for (int n = 0; n < total; n++)
            {
                final int rc = writer.subgroup("l").tryClaim(128, claim);
                assertThat(rc).as("a lossy writer is never back-pressured").isEqualTo(ClaimResult.OK);
                Senders.fill(claim.buffer(), 128, Senders.word(0, n));
                claim.commit();
                if ((n & 63) == 0)
                {
                    LockSupport.parkNanos(20_000);
                }
            }
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline
                && (slow.count + slow.lost < total || c.recorders.get(1).count + c.recorders.get(1).lost < total))
            {
                Thread.sleep(5);
            }
            for (final int m : new int[] {1, 2})
            {
                final TestCluster.Recorder r = c.recorders.get(m);
                assertThat(r.count + r.lost).as("member %d: delivered + lost", m).isEqualTo(total);
                long last = -1;
                for (final TestCluster.Delivery d : r.list())
                {
                    assertThat(d.firstWord()).as("FIFO, no duplicates").isGreaterThan(last);
                    assertThat(d.index()).as("payload matches index").isEqualTo(d.firstWord());
                    last = d.firstWord();
                }
            }
            assertThat(slow.lost).as("the slow reader was lapped").isGreaterThan(0);
            c.assertHealthy();
        }
        finally
        {
            TestCluster.Recorder.slowHook = null;
        }
    }

    /** Makes every upcall of the wrapped recorder slow; installed through the recorder's hook. */
    static final class DelayingRecorder
    {
        private static volatile TestCluster.Recorder slowOne;

        DelayingRecorder(final TestCluster.Recorder r)
        {
            slowOne = r;
        }

        static void install(final DelayingRecorder d)
        {
            TestCluster.Recorder.slowHook = (rec, payload) ->
            {
                if (rec == slowOne)
                {
                    LockSupport.parkNanos(200_000);
                }
            };
        }
    }

    interface SlowHook
    {
        void onMessage(TestCluster.Recorder r, MemorySegment payload);
    }
}
