/**
 * RDMA through libibverbs bound with {@code java.lang.foreign}: device and port queries, memory registration,
 * RC queue pairs, an RDMA-write {@code RowTransport} for the SST and an InfiniBand messaging transport, both found
 * through {@link java.util.ServiceLoader} and optional at run time.
 */
package io.sirocco.ib;
