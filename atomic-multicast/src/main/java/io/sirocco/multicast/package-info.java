/**
 * Derecho-style atomic multicast: group membership and views, the failure detector, the SST over
 * {@link java.lang.foreign.MemorySegment}s, the SMC slot rings, the predicate engine with the Spindle send, receive
 * and delivery triggers, null-sends, the view change with its ragged trim, and the {@code RowTransport} SPI with its
 * {@code shm}, {@code tcp} and {@code local} implementations.
 */
package io.sirocco.multicast;
