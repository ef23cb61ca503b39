package io.sirocco.transport.orb;

/** A message's export wrote past its declared size. Stackless: caught by the ring, which reports the class. */
final class ExportOverflowException extends RuntimeException
{
    static final ExportOverflowException INSTANCE = new ExportOverflowException();

    private ExportOverflowException()
    {
        super("export wrote past payloadSize()", null, false, false);
    }
}
