package io.sirocco.transport.orb;

/**
 * What a {@link RingExporter} calls when a message's export reaches the end of its fragment's reservation: reserve
 * the next fragment and re-aim the exporter at it ({@link FragmentedWrite}). Called on the producer's thread only.
 */
interface NextFragment
{
    /** Reserves the next fragment; throws {@link ExportOverflowException} if the message has no bytes left. */
    void nextFragment();
}
