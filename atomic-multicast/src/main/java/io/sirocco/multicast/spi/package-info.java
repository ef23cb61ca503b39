/**
 * The {@link io.sirocco.multicast.spi.RowTransport} SPI: how a member's SST row reaches the other members. The
 * protocol code never knows which implementation runs underneath: {@code local} (one JVM, for tests), {@code shm}
 * (one shared mapped table per view on one host), {@code tcp} (row-range frames), RDMA in {@code ib-native}.
 */
package io.sirocco.multicast.spi;
