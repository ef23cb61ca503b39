package io.sirocco.multicast.spi.tcp;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, found by fuzzing the tcp row port: an endpoint keeps frames for views it has not opened yet (so a view
 * change's first pushes are not lost), and a peer can name any view id, so garbage frames for made-up views grew the
 * heap without bound. What is kept is now bounded ({@link TcpEndpoint#PENDING_BOUND_BYTES}): a peer sends 40 frames
 * of 1 MiB for 40 views that never open; 16 are kept, 24 dropped and counted.
 */
class EarlyFrameBoundTest
{
    private static final int FRAMES = 40;
    private static final int FRAME_BYTES = 1 << 20;

    private TcpEndpoint endpoint;
    private MessagingService peer;

    @AfterEach
    void close()
    {
        if (peer != null)
        {
            peer.close();
        }
        if (endpoint != null)
        {
            endpoint.service.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldBoundTheFramesKeptForViewsNotOpenYet() throws Exception
    {
        final int port = freePort();
        endpoint = new TcpEndpoint(900, "127.0.0.1", port);
        final TransportContext context = new TransportContext().ownNodeId(901).transport("nio")
            .ringBufferBytes(1 << 22).flowControlWindowBytes(1 << 22);
        context.addressMap().put(901, "127.0.0.1", 0).put(900, "127.0.0.1", port);
        peer = MessagingService.start(context);
        final MemorySegment frame = Arena.ofAuto().allocate(FRAME_BYTES, 8);
        for (int i = 0; i < FRAMES; i++)
        {
            frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 1_000L + i); // a view that never opens
            peer.send(new RowFrame().wrap(frame, 0, FRAME_BYTES), 900);
        }
        final long expectedDropped = FRAMES - TcpEndpoint.PENDING_BOUND_BYTES / FRAME_BYTES;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (endpoint.pendingDropped() < expectedDropped && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(1); // polling for the event itself, bounded
        }
        assertThat(endpoint.pendingDropped()).isEqualTo(expectedDropped);
    }

    private static int freePort() throws java.io.IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
