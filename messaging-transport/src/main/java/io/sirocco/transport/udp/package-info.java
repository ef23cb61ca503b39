/**
 * UDP datagrams for protocols that need them (DDSI-RTPS): {@link io.sirocco.transport.udp.UdpChannel} (a
 * non-blocking unicast or multicast socket on a chosen, logged {@link io.sirocco.transport.udp.UdpInterface}) and
 * {@link io.sirocco.transport.udp.UdpReceiveAgent}, the agent that polls sockets and hands datagrams to a
 * {@link io.sirocco.transport.udp.DatagramHandler}. It knows nothing of what the datagrams carry.
 */
package io.sirocco.transport.udp;
