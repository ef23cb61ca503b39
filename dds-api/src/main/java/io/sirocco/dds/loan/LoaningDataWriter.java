package io.sirocco.dds.loan;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeoutException;

/**
 * Sirocco's zero-copy write extension, implemented by every Sirocco {@code DataWriter}: instead of handing over a
 * Java object to serialize, the application loans the next send slot of the topic's subgroup itself (on {@code shm}
 * the slot in the shared row that the readers' processes read), fills the serialized sample in place (for a
 * fixed-size type, through the generated {@code <Type>Flat} view: {@code flat.wrap(loan.segment(), 0)
 * .writeHeader()...}), then commits it. No sample object, no serialization step and no copy are involved. Where no
 * slot can be lent (the in-process {@code local} transport, a sample larger than a slot, or a RELIABLE reader still a
 * window behind after max_blocking_time) the loan is the writer's own buffer, and commit publishes it by copy.
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
     * Loans room for one serialized sample of {@code sizeBytes} (encapsulation header included): the next send slot.
     * For RELIABLE this waits, up to max_blocking_time, until every reader has room. The loan holds the writer's lock
     * and the subgroup's sender lock until it is committed or closed: keep it short, and use one thread.
     */
    WriteLoan loan(int sizeBytes);

    /**
     * A loaned send slot. Closing an uncommitted loan discards it: the slot keeps its place in the subgroup's order
     * as a skip record that is delivered to nobody and holds nobody up.
     */
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
