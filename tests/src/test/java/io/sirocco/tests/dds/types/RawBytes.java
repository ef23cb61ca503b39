package io.sirocco.tests.dds.types;

/** A sample that is whatever bytes a hostile peer wants on the wire ({@link RawBytesTypeSupport}). */
public final class RawBytes
{
    public byte[] bytes = new byte[0];
}
