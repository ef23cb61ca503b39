package io.sirocco.idl.model;

/** One compiler error, printed as {@code file:line:col: error: message}. */
public record Diagnostic(SourcePos pos, String message)
{
    @Override
    public String toString()
    {
        return pos + ": error: " + message;
    }
}
