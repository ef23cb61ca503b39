package io.sirocco.dds.loan;

import java.lang.foreign.MemorySegment;

/**
 * Sirocco's in-place read extension: set on a Sirocco {@code DataReader} (through {@link InPlaceDataReader}), it is
 * called on the reader's delivery thread with each arriving sample's serialized bytes, where they lie in the
 * reader's receive window, before (and instead of) deserialization into the cache. For fixed-size types, read the
 * fields through the generated {@code <Type>Flat} view: {@code flat.wrap(bytes, 0).altitudeFt()}.
 *
 * <p>The bytes are valid only during the call. Samples consumed this way do not enter the reader's cache.
 */
@FunctionalInterface
public interface InPlaceSampleListener
{
    /**
     * @param bytes           the serialized sample, encapsulation header at offset 0.
     * @param length          its length in bytes.
     * @param sourceTimeNs    the writer's source timestamp, nanoseconds since the epoch.
     * @param publicationGuid the writer's handle value.
     */
    void onSample(MemorySegment bytes, int length, long sourceTimeNs, long publicationGuid);
}
