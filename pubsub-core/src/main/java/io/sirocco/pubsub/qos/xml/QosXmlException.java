package io.sirocco.pubsub.qos.xml;

/**
 * A QoS XML document that cannot be used: names the file, the line and the element, e.g.
 * {@code qos.xml:12: <history>: unknown kind 'KEEP_SOME_HISTORY_QOS' (expected KEEP_LAST_HISTORY_QOS, ...)}.
 */
public final class QosXmlException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    QosXmlException(final String source, final int line, final String element, final String message)
    {
        super(source + ":" + line + ": <" + element + ">: " + message);
    }

    QosXmlException(final String source, final int line, final String message, final Throwable cause)
    {
        super(source + ":" + line + ": " + message, cause);
    }
}
