package io.sirocco.ib.msg;

import java.lang.foreign.MemorySegment;

import io.sirocco.ib.verbs.QpEndpoint;

/**
 * The verbs {@link IbTransport} uses, as one facade, so that its logic (handshake, slots, credits, ordering) runs
 * over real verbs ({@link VerbsMessaging}) or over an in-memory fake in tests. Sends are always signaled
 * SEND_WITH_IMM; receives go to one shared receive queue of equally sized buffers.
 *
 * <p>Threads: {@link #pollSend}, {@link #pollReceive}, {@link #repost} and {@link #postSend} are called by the
 * transport's poller thread only; queue pairs are created and connected by the connecting or accepting thread before
 * they are published to the poller; {@link #toError} may be called from any thread.
 */
interface MessagingVerbs
{
    /** Opens the device and the shared queues, and posts every receive buffer. */
    void open(int srqDepth, int receiveBytes, int sendCqEntries);

    /** For logs: device, port, LID, MTU. */
    String description();

    /** Creates an RC queue pair in INIT on the shared CQs and SRQ, with {@code stagingBytes} of registered memory. */
    Qp createQp(int stagingBytes);

    /** What the peer needs to connect to {@code qp}, with our starting PSN. */
    QpEndpoint endpoint(Qp qp, int psn);

    /** Moves {@code qp} to RTR towards {@code remote}, then to RTS with {@code psn}. */
    void connect(Qp qp, QpEndpoint remote, int psn);

    /**
     * Posts one signaled SEND_WITH_IMM of {@code length} bytes from the QP's staging memory at
     * {@code stagingOffset} ({@code length} 0: immediate only).
     *
     * @return 0, or an errno value
     */
    int postSend(Qp qp, long wrId, long stagingOffset, int length, int immediate);

    /** Polls send completions once; returns how many were handed to {@code sink}. */
    int pollSend(SendSink sink);

    /** Polls receive completions once; returns how many were handed to {@code sink}. */
    int pollReceive(ReceiveSink sink);

    /** Gives receive buffer {@code index} back to the shared receive queue. */
    void repost(int index);

    /** Moves {@code qp} to the error state (outstanding requests are flushed). Never throws. */
    void toError(Qp qp);

    /** Destroys {@code qp} and frees its staging memory. Never throws. */
    void destroy(Qp qp);

    /** Text of a completion status. */
    String statusString(int status);

    /** Releases the shared queues and the device. Never throws. */
    void close();

    /** One queue pair and its registered staging memory. */
    interface Qp
    {
        int qpNum();

        /** Registered send staging memory (empty for a QP that only sends credits). */
        MemorySegment staging();
    }

    /** Receives send completions. */
    @FunctionalInterface
    interface SendSink
    {
        void onSend(long wrId, int status, int qpNum);
    }

    /**
     * Receives receive completions: the bytes are at {@code offset} of {@code buffers}, valid until
     * {@link #repost(int)} of {@code index}; {@code immediate} is in host order.
     */
    @FunctionalInterface
    interface ReceiveSink
    {
        void onReceive(int index, int status, int byteLength, int immediate, MemorySegment buffers, long offset);
    }
}
