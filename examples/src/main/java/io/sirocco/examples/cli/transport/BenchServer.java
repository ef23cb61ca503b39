package io.sirocco.examples.cli.transport;

import io.sirocco.transport.MessagingService;

import java.util.concurrent.atomic.LongAdder;

/**
 * The answering side of the benchmark: echoes pings with a pong of the same size (raw handler, one reused pong per
 * handler thread) and counts blobs.
 */
public final class BenchServer
{
    private final LongAdder messages = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    public void install(final MessagingService node)
    {
        final ThreadLocal<BenchMessages.Pong[]> pongs = ThreadLocal.withInitial(() -> new BenchMessages.Pong[1]);
        node.registerMessageType(BenchMessages.TYPE, BenchMessages.PONG, BenchMessages.Pong::new);
        node.registerMessageType(BenchMessages.TYPE, BenchMessages.STATS_REPLY, BenchMessages.StatsReply::new);
        node.registerRawHandler(BenchMessages.TYPE, BenchMessages.PING, frame ->
        {
            final BenchMessages.Pong[] holder = pongs.get();
            final int size = frame.payloadLength();
            if (holder[0] == null || holder[0].payloadSize() != size)
            {
                holder[0] = new BenchMessages.Pong(size);
            }
            node.respond(frame.sourceNodeId(), frame.requestId(), holder[0]);
        });
        node.registerRawHandler(BenchMessages.TYPE, BenchMessages.BLOB, frame ->
        {
            messages.increment();
            bytes.add(frame.payloadLength());
        });
        node.registerRawHandler(BenchMessages.TYPE, BenchMessages.STATS, frame ->
        {
            final BenchMessages.StatsReply reply = new BenchMessages.StatsReply();
            reply.messages = messages.sum();
            reply.bytes = bytes.sum();
            node.respond(frame.sourceNodeId(), frame.requestId(), reply);
        });
    }
}
