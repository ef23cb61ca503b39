package io.sirocco.dds.type.cdr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Deep equality, hashing, printing and copying for the members of generated types: arrays (of any rank) and
 * {@link List}s whose elements may themselves be arrays. Used by generated {@code equals}, {@code hashCode},
 * {@code toString} and copy constructors, not on the data path.
 */
public final class Values
{
    private Values()
    {
    }

    public static boolean deepEquals(final Object a, final Object b)
    {
        if (a == b)
        {
            return true;
        }
        if (a == null || b == null)
        {
            return false;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb)
        {
            if (la.size() != lb.size())
            {
                return false;
            }
            for (int i = 0; i < la.size(); i++)
            {
                if (!deepEquals(la.get(i), lb.get(i)))
                {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Object[] oa && b instanceof Object[] ob)
        {
            if (oa.length != ob.length)
            {
                return false;
            }
            for (int i = 0; i < oa.length; i++)
            {
                if (!deepEquals(oa[i], ob[i]))
                {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof float[] fa && b instanceof float[] fb)
        {
            return Arrays.equals(fa, fb);
        }
        if (a instanceof double[] da && b instanceof double[] db)
        {
            return Arrays.equals(da, db);
        }
        return Objects.deepEquals(a, b);
    }

    public static int deepHashCode(final Object value)
    {
        if (value == null)
        {
            return 0;
        }
        if (value instanceof List<?> list)
        {
            int h = 1;
            for (final Object element : list)
            {
                h = 31 * h + deepHashCode(element);
            }
            return h;
        }
        if (value instanceof Object[] array)
        {
            int h = 1;
            for (final Object element : array)
            {
                h = 31 * h + deepHashCode(element);
            }
            return h;
        }
        if (value.getClass().isArray())
        {
            return Arrays.deepHashCode(new Object[] {value});
        }
        return value.hashCode();
    }

    public static String toString(final Object value)
    {
        if (value == null)
        {
            return "null";
        }
        if (value instanceof List<?> list)
        {
            final StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++)
            {
                sb.append(i == 0 ? "" : ", ").append(toString(list.get(i)));
            }
            return sb.append(']').toString();
        }
        if (value.getClass().isArray())
        {
            final String s = Arrays.deepToString(new Object[] {value});
            return s.substring(1, s.length() - 1);
        }
        return String.valueOf(value);
    }

    public static <E> List<E> copyList(final List<E> source, final UnaryOperator<E> copier)
    {
        if (source == null)
        {
            return null;
        }
        final List<E> copy = new ArrayList<>(source.size());
        for (final E element : source)
        {
            copy.add(copier.apply(element));
        }
        return copy;
    }

    public static <E> E[] copyArray(final E[] source, final UnaryOperator<E> copier)
    {
        if (source == null)
        {
            return null;
        }
        final E[] copy = source.clone();
        for (int i = 0; i < copy.length; i++)
        {
            copy[i] = copier.apply(source[i]);
        }
        return copy;
    }
}
