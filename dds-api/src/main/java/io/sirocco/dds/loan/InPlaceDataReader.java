package io.sirocco.dds.loan;

/** Implemented by every Sirocco {@code DataReader}: see {@link InPlaceSampleListener}. */
public interface InPlaceDataReader
{
    /** Sets (or with null, removes) the in-place listener; while set, data samples bypass the cache. */
    void setInPlaceListener(InPlaceSampleListener listener);
}
