package io.sirocco.transport.udp;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/** Receives datagrams from a {@link UdpReceiveAgent}, on the agent's thread. */
@FunctionalInterface
public interface DatagramHandler
{
    /**
     * One datagram in {@code buffer[0, length)}. The buffer is reused for the next datagram: copy what must outlive
     * the call. An exception is counted and logged at a bounded rate by the agent, which goes on.
     */
    void onDatagram(ByteBuffer buffer, int length, InetSocketAddress source);
}
