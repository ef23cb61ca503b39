package io.sirocco.dds.type.cdr;

import java.util.random.RandomGenerator;

/**
 * Random member values for the {@code randomSample} methods that the IDL compiler emits on request (property
 * tests): lengths within bounds, and strings that exercise UTF-8 and UTF-16 while respecting byte bounds.
 */
public final class RandomValues
{
    private static final String SAMPLE_CHARS = "abcXYZ019 _-\u00e9\u00df\u03a9\u4e2d\u20ac";

    private RandomValues()
    {
    }

    /** A collection length: 0..min(bound, 8), and 0 once recursion is deep. */
    public static int length(final RandomGenerator g, final long bound, final int depth)
    {
        if (depth > 3)
        {
            return 0;
        }
        final long max = bound > 0 ? Math.min(bound, 8) : 8;
        return g.nextInt((int)max + 1);
    }

    /** A string of at most {@code boundBytes} UTF-8 bytes (0: unbounded), with some non-ASCII characters. */
    public static String string(final RandomGenerator g, final long boundBytes)
    {
        final int n = g.nextInt(12);
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++)
        {
            final char c = SAMPLE_CHARS.charAt(g.nextInt(SAMPLE_CHARS.length()));
            sb.append(c);
            if (boundBytes > 0 && CdrWriter.utf8Length(sb.toString()) > boundBytes)
            {
                sb.setLength(sb.length() - 1);
                break;
            }
        }
        return sb.toString();
    }

    /** A wstring of at most {@code boundChars} characters (0: unbounded). */
    public static String wstring(final RandomGenerator g, final long boundChars)
    {
        final int max = boundChars > 0 ? (int)Math.min(boundChars, 12) : 12;
        final int n = g.nextInt(max + 1);
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++)
        {
            sb.append(SAMPLE_CHARS.charAt(g.nextInt(SAMPLE_CHARS.length())));
        }
        return sb.toString();
    }
}
