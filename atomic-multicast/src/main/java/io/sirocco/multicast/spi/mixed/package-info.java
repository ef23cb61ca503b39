/**
 * The {@code mixed} row transport: one SST spanning hosts, shared memory between the members of one host and tcp
 * frames between hosts, chosen per target row.
 */
package io.sirocco.multicast.spi.mixed;
