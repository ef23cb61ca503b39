package io.sirocco.dds.type.cdr;

/**
 * The bytes being read are not a valid serialized sample: the message names the offset (from the start of the
 * body, after the encapsulation header) and the reason. It is an {@link IllegalArgumentException} so that
 * {@link io.sirocco.dds.type.TypeCodec#deserialize} keeps its documented contract.
 */
public final class CdrFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    public CdrFormatException(final long offset, final String reason)
    {
        super("invalid sample at body offset " + offset + ": " + reason);
    }
}
