package io.sirocco.multicast.model;

/** What a member does in a subgroup. Every role receives (and takes part in ordering); writers also send. */
public enum Role
{
    WRITER,
    READER,
    WRITER_READER;

    public boolean sends()
    {
        return this != READER;
    }
}
