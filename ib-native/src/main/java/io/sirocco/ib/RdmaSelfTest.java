package io.sirocco.ib;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.sirocco.ib.verbs.CompletionQueue;
import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.MemoryRegion;
import io.sirocco.ib.verbs.QpConfig;
import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.QueuePair;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.Verbs;
import io.sirocco.ib.verbs.VerbsException;

/**
 * The first thing to run on new RDMA hardware ({@code sirocco rdma-info --self-test}): two RC queue pairs on one
 * device connected to each other through the port, exercising every verb Sirocco's data paths use. It registers a
 * 4096-aligned region, moves both QPs through INIT, RTR and RTS, posts an RDMA WRITE of a range, an INLINE 8-byte
 * guard write and a SEND_WITH_IMM into a posted receive, polls the completions with a deadline, checks every byte,
 * and times signaled inline writes (post to completion). Nothing here runs in CI, which has no device.
 */
public final class RdmaSelfTest
{
    private static final int DATA_OFFSET = 0;
    private static final int DATA_LENGTH = 1024;
    private static final int REMOTE_OFFSET = 4096;
    private static final int GUARD_OFFSET = REMOTE_OFFSET + 2048;
    private static final int SEND_OFFSET = 3072;
    private static final int RECV_OFFSET = 8192 - 512;
    private static final long DEADLINE_NS = 5_000_000_000L;

    private RdmaSelfTest()
    {
    }

    /**
     * Runs the self-test on {@code deviceName} ({@code ""}: the first device).
     *
     * @param gidIndex source GID index (RoCE needs the right one; 0 on InfiniBand)
     * @param timedWrites how many signaled inline writes to time
     * @return what was checked and measured; {@link Result#passed()} says whether every check held
     */
    public static Result run(final String deviceName, final int portNum, final int gidIndex, final int timedWrites)
    {
        final List<String> lines = new ArrayList<>();
        final Libibverbs verbs = Libibverbs.load();
        final String name = deviceName.isEmpty() ? verbs.deviceList().get(0).name() : deviceName;
        final QpConfig config = new QpConfig(portNum, gidIndex, 5, 64, 4, 64, 14, 7, 7, 12);
        try (RdmaDevice device = RdmaDevice.open(verbs, name);
            MemoryRegion region = MemoryRegion.allocate(device, 8192,
                Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE | Verbs.ACCESS_REMOTE_READ);
            CompletionQueue cq = new CompletionQueue(device, 256, 16);
            QueuePair a = new QueuePair(device, config, cq, cq, null);
            QueuePair b = new QueuePair(device, config, cq, cq, null))
        {
            connect(device, config, a, b, portNum, gidIndex, name, lines);
            boolean passed = checkWriteAndGuard(verbs, region, cq, a, lines);
            passed &= checkSendWithImmediate(verbs, region, cq, a, b, lines);
            passed &= timeInlineWrites(region, cq, a, timedWrites, lines);
            return new Result(passed, lines);
        }
        catch (final VerbsException ex)
        {
            lines.add("FAILED: " + ex.getMessage());
            return new Result(false, lines);
        }
    }

    /** Brings the two queue pairs of the loopback to RTS, connected to each other. */
    private static void connect(final RdmaDevice device, final QpConfig config, final QueuePair a, final QueuePair b,
        final int portNum, final int gidIndex, final String name, final List<String> lines)
    {
        final RdmaDevice.PortInfo port = device.queryPort(portNum);
        final int mtu = Math.min(config.mtu(), port.activeMtu());
        final byte[] gid = device.gid(portNum, gidIndex);
        lines.add("device " + name + " port " + portNum + ": " + Verbs.portStateName(port.state()) + ", "
            + Verbs.linkLayerName(port.linkLayer()) + ", MTU " + Verbs.mtuBytes(mtu) + ", LID " + port.lid()
            + ", GID[" + gidIndex + "] " + RdmaDevice.formatGid(gid));
        final int psnA = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
        final int psnB = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
        final int access = Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE;
        a.toInit(access);
        b.toInit(access);
        a.toRtr(new QpEndpoint(port.lid(), b.qpNum(), psnB, gid), mtu);
        b.toRtr(new QpEndpoint(port.lid(), a.qpNum(), psnA, gid), mtu);
        a.toRts(psnA);
        b.toRts(psnB);
        lines.add("queue pairs " + a.qpNum() + " <-> " + b.qpNum() + ": INIT, RTR, RTS");
    }

    /** An unsignaled RDMA WRITE followed by a signaled inline guard: both land, in order. */
    private static boolean checkWriteAndGuard(final Libibverbs verbs, final MemoryRegion region,
        final CompletionQueue cq, final QueuePair a, final List<String> lines)
    {
        final MemorySegment memory = region.segment();
        for (int i = 0; i < DATA_LENGTH; i++)
        {
            memory.set(ValueLayout.JAVA_BYTE, DATA_OFFSET + i, (byte)(i * 31 + 7));
        }
        check(a.postWrite(1, region.address() + DATA_OFFSET, DATA_LENGTH, region.lkey(),
            region.address() + REMOTE_OFFSET, region.rkey(), 0), "post RDMA WRITE");
        check(a.postInlineLong(2, 0x5151_C0C0_1234_5678L, region.address() + GUARD_OFFSET, region.rkey(),
            Verbs.SEND_SIGNALED), "post INLINE guard");
        final long[] guardCompletion = awaitCompletion(cq, 2);
        lines.add("RDMA WRITE " + DATA_LENGTH + " B (unsignaled) + INLINE guard (signaled): status "
            + verbs.wcStatusString((int)guardCompletion[1]));
        boolean passed = guardCompletion[1] == Verbs.WC_SUCCESS;
        passed &= memory.get(ValueLayout.JAVA_LONG, GUARD_OFFSET) == 0x5151_C0C0_1234_5678L;
        passed &= MemorySegment.mismatch(memory, DATA_OFFSET, DATA_OFFSET + DATA_LENGTH,
            memory, REMOTE_OFFSET, REMOTE_OFFSET + DATA_LENGTH) == -1;
        lines.add("written bytes and guard " + (passed ? "match" : "DO NOT match"));
        return passed;
    }

    /** A SEND_WITH_IMM into a posted receive: payload and immediate arrive. */
    private static boolean checkSendWithImmediate(final Libibverbs verbs, final MemoryRegion region,
        final CompletionQueue cq, final QueuePair a, final QueuePair b, final List<String> lines)
    {
        final MemorySegment memory = region.segment();
        check(b.postRecv(3, region.address() + RECV_OFFSET, 512, region.lkey()), "post receive");
        memory.set(ValueLayout.JAVA_LONG, SEND_OFFSET, 0x0102_0304_0506_0708L);
        check(a.postSend(4, region.address() + SEND_OFFSET, 8, region.lkey(), true, 0xABCD_0102,
            Verbs.SEND_SIGNALED), "post SEND_WITH_IMM");
        final long[] received = awaitCompletion(cq, 3);
        final boolean sendOk = received[1] == Verbs.WC_SUCCESS && (int)received[2] == 0xABCD_0102
            && memory.get(ValueLayout.JAVA_LONG, RECV_OFFSET) == 0x0102_0304_0506_0708L;
        awaitCompletion(cq, 4);
        lines.add("SEND_WITH_IMM into a posted receive: " + (sendOk ? "payload and immediate match"
            : "FAILED (status " + verbs.wcStatusString((int)received[1]) + ")"));
        return sendOk;
    }

    /** Times signaled inline writes, post to completion; false if one failed. */
    private static boolean timeInlineWrites(final MemoryRegion region, final CompletionQueue cq, final QueuePair a,
        final int timedWrites, final List<String> lines)
    {
        boolean passed = true;
        final long[] latencies = new long[Math.max(1, timedWrites)];
        for (int i = 0; i < latencies.length; i++)
        {
            final long startNs = System.nanoTime();
            check(a.postInlineLong(100 + i, i, region.address() + GUARD_OFFSET, region.rkey(),
                Verbs.SEND_SIGNALED), "post timed INLINE write");
            final long[] done = awaitCompletion(cq, 100 + i);
            latencies[i] = System.nanoTime() - startNs;
            passed &= done[1] == Verbs.WC_SUCCESS;
        }
        Arrays.sort(latencies);
        lines.add(String.format("signaled INLINE 8 B write, post to completion over %d runs: median %.2f us, "
                + "p99 %.2f us", latencies.length, latencies[latencies.length / 2] / 1000.0,
            latencies[(int)Math.min(latencies.length - 1, Math.round(latencies.length * 0.99))] / 1000.0));
        return passed;
    }

    private static void check(final int rc, final String what)
    {
        if (0 != rc)
        {
            throw new VerbsException(what + " failed: errno " + rc);
        }
    }

    /** Polls until the completion of {@code wrId} arrives; returns {wrId, status, imm}. */
    private static long[] awaitCompletion(final CompletionQueue cq, final long wrId)
    {
        final long[] found = {-1, -1, 0};
        final long startNs = System.nanoTime();
        while (found[0] != wrId)
        {
            cq.poll((id, status, opcode, byteLen, imm, qpNum, flags) ->
            {
                if (id == wrId || status != Verbs.WC_SUCCESS)
                {
                    found[0] = wrId;
                    found[1] = status;
                    found[2] = imm;
                }
            });
            if (System.nanoTime() - startNs > DEADLINE_NS)
            {
                throw new VerbsException("no completion for work request " + wrId + " within 5 s");
            }
        }
        return found;
    }

    /** The outcome: whether every check held, and one line per step. */
    public record Result(boolean passed, List<String> lines)
    {
    }
}
