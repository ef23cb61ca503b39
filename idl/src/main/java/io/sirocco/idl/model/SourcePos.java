package io.sirocco.idl.model;

/** A place in an IDL source file: file name as given (or as resolved for includes), 1-based line and column. */
public record SourcePos(String file, int line, int column)
{
    @Override
    public String toString()
    {
        return file + ":" + line + ":" + column;
    }
}
