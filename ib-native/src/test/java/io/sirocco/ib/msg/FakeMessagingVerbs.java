package io.sirocco.ib.msg;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.Verbs;

/**
 * An in-memory RDMA fabric for {@link IbTransport}: reliable-connected queue pairs that deliver SEND_WITH_IMM into
 * the receiver's shared receive queue in posting order, hold messages while the receiver has no buffer posted (RNR
 * with infinite retry, as the transport configures), complete a send once it landed, and fail sends to a peer whose
 * queue pair is gone with {@code IBV_WC_RETRY_EXC_ERR}. It models the verbs semantics the transport relies on, not
 * a NIC's timing.
 */
final class FakeMessagingVerbs implements MessagingVerbs
{
    /** The queue pairs of every fake node in a test, by QP number. */
    static final class Fabric
    {
        private final Map<Integer, FakeQp> queuePairs = new ConcurrentHashMap<>();
        private final AtomicInteger nextQpNum = new AtomicInteger(100);
    }

    private record Delivery(FakeQp from, long wrId, byte[] bytes, int immediate)
    {
    }

    private record ReceiveCompletion(int index, int status, int length, int immediate)
    {
    }

    private record SendCompletion(long wrId, int status, int qpNum)
    {
    }

    final class FakeQp implements Qp
    {
        private final int qpNum;
        private final MemorySegment staging;
        private volatile int remoteQpNum = -1;
        private volatile boolean error;

        FakeQp(final int qpNum, final MemorySegment staging)
        {
            this.qpNum = qpNum;
            this.staging = staging;
        }

        @Override
        public int qpNum()
        {
            return qpNum;
        }

        @Override
        public MemorySegment staging()
        {
            return staging;
        }

        FakeMessagingVerbs owner()
        {
            return FakeMessagingVerbs.this;
        }
    }

    private final Fabric fabric;
    private final Arena arena = Arena.ofShared();
    private final Queue<SendCompletion> sendCompletions = new ConcurrentLinkedQueue<>();
    private final Queue<ReceiveCompletion> receiveCompletions = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Integer> freeBuffers = new ArrayDeque<>();
    private final ArrayDeque<Delivery> waiting = new ArrayDeque<>();
    private MemorySegment buffers;
    private int receiveBytes;

    FakeMessagingVerbs(final Fabric fabric)
    {
        this.fabric = fabric;
    }

    @Override
    public void open(final int srqDepth, final int receiveBytes, final int sendCqEntries)
    {
        this.receiveBytes = receiveBytes;
        this.buffers = arena.allocate((long)srqDepth * receiveBytes, 4096);
        for (int i = 0; i < srqDepth; i++)
        {
            freeBuffers.add(i);
        }
    }

    @Override
    public String description()
    {
        return "fake RDMA fabric";
    }

    @Override
    public Qp createQp(final int stagingBytes)
    {
        final FakeQp qp = new FakeQp(fabric.nextQpNum.getAndIncrement(), arena.allocate(Math.max(8, stagingBytes), 8));
        fabric.queuePairs.put(qp.qpNum, qp);
        return qp;
    }

    @Override
    public QpEndpoint endpoint(final Qp qp, final int psn)
    {
        return new QpEndpoint(0, qp.qpNum(), psn, new byte[16]);
    }

    @Override
    public void connect(final Qp qp, final QpEndpoint remote, final int psn)
    {
        ((FakeQp)qp).remoteQpNum = remote.qpNum();
    }

    @Override
    public int postSend(final Qp qp, final long wrId, final long stagingOffset, final int length, final int immediate)
    {
        final FakeQp local = (FakeQp)qp;
        if (local.error)
        {
            sendCompletions.add(new SendCompletion(wrId, Verbs.WC_WR_FLUSH_ERR, local.qpNum));
            return 0;
        }
        final FakeQp remote = fabric.queuePairs.get(local.remoteQpNum);
        if (null == remote || remote.error || length > remote.owner().receiveBytes)
        {
            local.error = true;
            sendCompletions.add(new SendCompletion(wrId, Verbs.WC_RETRY_EXC_ERR, local.qpNum));
            return 0;
        }
        final byte[] bytes = local.staging.asSlice(stagingOffset, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        remote.owner().deliver(new Delivery(local, wrId, bytes, immediate));
        return 0;
    }

    private synchronized void deliver(final Delivery delivery)
    {
        if (!waiting.isEmpty() || freeBuffers.isEmpty())
        {
            waiting.add(delivery); // receiver not ready: the sender's QP keeps retrying, in order
            return;
        }
        land(delivery, freeBuffers.poll());
    }

    private void land(final Delivery delivery, final int index)
    {
        MemorySegment.copy(delivery.bytes, 0, buffers, java.lang.foreign.ValueLayout.JAVA_BYTE,
            (long)index * receiveBytes, delivery.bytes.length);
        receiveCompletions.add(new ReceiveCompletion(index, Verbs.WC_SUCCESS, delivery.bytes.length,
            delivery.immediate));
        delivery.from.owner().sendCompletions.add(
            new SendCompletion(delivery.wrId, Verbs.WC_SUCCESS, delivery.from.qpNum));
    }

    @Override
    public int pollSend(final SendSink sink)
    {
        int n = 0;
        SendCompletion completion;
        while (n < 64 && null != (completion = sendCompletions.poll()))
        {
            sink.onSend(completion.wrId(), completion.status(), completion.qpNum());
            n++;
        }
        return n;
    }

    @Override
    public int pollReceive(final ReceiveSink sink)
    {
        int n = 0;
        ReceiveCompletion completion;
        while (n < 64 && null != (completion = receiveCompletions.poll()))
        {
            sink.onReceive(completion.index(), completion.status(), completion.length(), completion.immediate(),
                buffers, (long)completion.index() * receiveBytes);
            n++;
        }
        return n;
    }

    @Override
    public synchronized void repost(final int index)
    {
        final Delivery next = waiting.poll();
        if (null != next)
        {
            land(next, index);
        }
        else
        {
            freeBuffers.add(index);
        }
    }

    @Override
    public void toError(final Qp qp)
    {
        ((FakeQp)qp).error = true;
    }

    @Override
    public void destroy(final Qp qp)
    {
        fabric.queuePairs.remove(qp.qpNum());
    }

    @Override
    public String statusString(final int status)
    {
        return "status " + status;
    }

    @Override
    public void close()
    {
        fabric.queuePairs.values().removeIf(qp -> qp.owner() == this);
    }
}
