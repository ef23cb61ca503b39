package io.sirocco.log.disk;

/**
 * A backup store could not persist or read its logs: disk full, I/O error, or a zone whose secondary log is full.
 * The message names the store directory, the file and the zone concerned. Once thrown to a writer, the store
 * refuses further appends; data acknowledged before the failure stays intact on disk.
 */
public final class LogStorageException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public LogStorageException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    public LogStorageException(final String message)
    {
        super(message);
    }
}
