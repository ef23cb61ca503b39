package io.sirocco.examples.cli.inspect;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Iterator;

/**
 * A sample of a generated type as text, field by field: {@code {x=1, name="a", inner={...}, seq=[1, 2, 3]}}. Generated
 * types keep their members in public fields in IDL order; unions and enums print through their {@code toString}.
 * Long sequences and arrays show their first {@link #MAX_ELEMENTS} elements and their length.
 */
public final class SampleText
{
    static final int MAX_ELEMENTS = 8;

    private SampleText()
    {
    }

    public static String of(final Object sample)
    {
        final StringBuilder sb = new StringBuilder();
        value(sb, sample);
        return sb.toString();
    }

    private static void value(final StringBuilder sb, final Object v)
    {
        if (v == null)
        {
            sb.append("null");
        }
        else if (v instanceof String s)
        {
            sb.append('"').append(s).append('"');
        }
        else if (v instanceof Number || v instanceof Boolean || v instanceof Character || v instanceof Enum<?>)
        {
            sb.append(v);
        }
        else if (v.getClass().isArray())
        {
            array(sb, v);
        }
        else if (v instanceof Collection<?> c)
        {
            elements(sb, c.iterator(), c.size());
        }
        else
        {
            struct(sb, v);
        }
    }

    private static void struct(final StringBuilder sb, final Object v)
    {
        final Field[] fields = v.getClass().getFields();
        boolean any = false;
        sb.append('{');
        for (final Field f : fields)
        {
            if (Modifier.isStatic(f.getModifiers()))
            {
                continue;
            }
            sb.append(any ? ", " : "").append(f.getName()).append('=');
            any = true;
            try
            {
                value(sb, f.get(v));
            }
            catch (final IllegalAccessException ex)
            {
                sb.append('?');
            }
        }
        if (!any)
        {
            sb.append(v);
        }
        sb.append('}');
    }

    private static void array(final StringBuilder sb, final Object array)
    {
        final int length = Array.getLength(array);
        elements(sb, new Iterator<>()
        {
            private int i;

            @Override
            public boolean hasNext()
            {
                return i < length;
            }

            @Override
            public Object next()
            {
                return Array.get(array, i++);
            }
        }, length);
    }

    private static void elements(final StringBuilder sb, final Iterator<?> it, final int length)
    {
        sb.append('[');
        for (int i = 0; i < Math.min(length, MAX_ELEMENTS) && it.hasNext(); i++)
        {
            sb.append(i == 0 ? "" : ", ");
            value(sb, it.next());
        }
        if (length > MAX_ELEMENTS)
        {
            sb.append(", ... (").append(length).append(" in all)");
        }
        sb.append(']');
    }
}
