package io.sirocco.idl.model;

import java.util.List;

/**
 * The only exception the compiler throws for bad input: it carries one or more {@link Diagnostic}s, each with the
 * exact file, line and column.
 */
public final class IdlException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final transient List<Diagnostic> diagnostics;

    public IdlException(final List<Diagnostic> diagnostics)
    {
        super(join(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public IdlException(final SourcePos pos, final String message)
    {
        this(List.of(new Diagnostic(pos, message)));
    }

    public List<Diagnostic> diagnostics()
    {
        return diagnostics;
    }

    private static String join(final List<Diagnostic> diagnostics)
    {
        final StringBuilder sb = new StringBuilder();
        for (final Diagnostic d : diagnostics)
        {
            if (!sb.isEmpty())
            {
                sb.append('\n');
            }
            sb.append(d);
        }
        return sb.toString();
    }
}
