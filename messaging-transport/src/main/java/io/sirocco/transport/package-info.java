/**
 * DXNet-style point-to-point messaging: 16-bit node ids and the node address map, the connection
 * manager, the outgoing ring buffer (ORB), message export/import, the incoming buffer queue and handler threads,
 * credit-based flow control, request/response matching, and the {@code nio} (TCP) and {@code loopback}
 * transports behind a transport SPI that {@code ib-native} also implements.
 */
package io.sirocco.transport;
