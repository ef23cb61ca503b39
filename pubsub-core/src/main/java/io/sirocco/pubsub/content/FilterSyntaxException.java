package io.sirocco.pubsub.content;

/**
 * A DDS-SQL filter or query expression that does not parse, or does not fit the topic type. The message names the
 * expression, the position (0-based character offset) and the offending token, or the unknown field and the type.
 * An {@link IllegalArgumentException}, as the Java 5 PSM maps the DCPS BAD_PARAMETER return code.
 */
public final class FilterSyntaxException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final int position;

    public FilterSyntaxException(final String expression, final int position, final String reason)
    {
        super("DDS-SQL expression \"" + expression + "\": " + reason + (position >= 0 ? " at position " + position :
            ""));
        this.position = position;
    }

    /** The 0-based character offset of the offending token in the expression, or -1 when not tied to one. */
    public int position()
    {
        return position;
    }
}
