package io.sirocco.idl.gen;

/** Java array creation expressions for generated code, including arrays of generic lists and of arrays. */
final class ArrayExprs
{
    private ArrayExprs()
    {
    }

    /** An array creation expression; arrays of generic lists need an unchecked cast (methods suppress it). */
    static String newArray(final String elementType, final int length, final int extraDims)
    {
        final String rest = "[]".repeat(extraDims);
        if (elementType.contains("<"))
        {
            return "(" + elementType + "[]" + rest + ") new java.util.List<?>[" + length + "]" + rest;
        }
        if (elementType.endsWith("[]"))
        {
            final int at = elementType.indexOf('[');
            return "new " + elementType.substring(0, at) + "[" + length + "]" + rest + elementType.substring(at);
        }
        return "new " + elementType + "[" + length + "]" + rest;
    }

    /** A creation expression with every dimension given. */
    static String newArrayFull(final String elementType, final int[] dims)
    {
        final StringBuilder sizes = new StringBuilder();
        for (final int d : dims)
        {
            sizes.append('[').append(d).append(']');
        }
        if (elementType.contains("<"))
        {
            return "(" + elementType + "[]".repeat(dims.length) + ") new java.util.List<?>" + sizes;
        }
        if (elementType.endsWith("[]"))
        {
            final int at = elementType.indexOf('[');
            return "new " + elementType.substring(0, at) + sizes + elementType.substring(at);
        }
        return "new " + elementType + sizes;
    }
}
