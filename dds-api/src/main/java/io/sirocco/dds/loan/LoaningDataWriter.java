package io.sirocco.dds.loan;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeoutException;

/**
 * Sirocco's zero-copy write extension, implemented by every Sirocco {@code DataWriter}: instead of handing over a
 * Java object to serialize, the application loans the writer's send buffer, fills the serialized sample in place
 * (for a fixed-size type, through the generated {@code <Type>Flat} view: {@code flat.wrap(loan.segment(), 0)
 * .writeHeader()...}), then commits it. No sample object and no serialization step are involved.
 *
 * <pre>{@code
 * LoaningDataWriter<AirData> loaning = (LoaningDataWriter<AirData>) writer;
 * try (WriteLoan loan = loaning.loan(AirDataFlat.SIZE)) {
 *     flat.wrap(loan.segment(), 0).writeHeader().aircraftId((short) 7).altitudeFt(31_000);
 *     loan.commit();
 * }
 * }</pre>
 *
 * @param <T> the topic type.
 */
public interface LoaningDataWriter<T>
{
    /**
     * Loans room for one serialized sample of {@code sizeBytes} (encapsulation header included). The loan holds the
     * writer's lock until it is committed or closed: keep it short, and use one thread.
     */
    WriteLoan loan(int sizeBytes);

    /** A loaned send buffer. Closing an uncommitted loan discards it. */
    interface WriteLoan extends AutoCloseable
    {
        /** The bytes to fill: {@code sizeBytes} long, serialized sample starting at offset 0. */
        MemorySegment segment();

        /**
         * Publishes the sample as {@code write} would (same blocking rule for RELIABLE). The key is read back from
         * the bytes for keyed types.
         *
         * @throws TimeoutException when a RELIABLE reader stayed a window behind for max_blocking_time.
         */
        void commit() throws TimeoutException;

        @Override
        void close();
    }
}
