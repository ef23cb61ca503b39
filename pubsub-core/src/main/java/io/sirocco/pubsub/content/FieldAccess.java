package io.sirocco.pubsub.content;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a member path ({@code a.b[2].c}) of a generated topic type into one {@link MethodHandle} from the sample
 * to the leaf value, built once when the filter is compiled, so evaluating it is a chain of field reads without
 * reflection or boxing. IDL members are public fields of the generated class (a member named like a Java keyword
 * gets a leading underscore); arrays and sequences ({@code List}) take an element index.
 *
 * @param handle   {@code (Object) -> leafType}: throws NullPointerException or IndexOutOfBoundsException when an
 *                 optional member is absent or an index is past the end (the predicate is then false).
 * @param leafType the Java type of the value.
 * @param path     the path as written, for error messages.
 */
record FieldAccess(MethodHandle handle, Class<?> leafType, String path)
{
    private static final MethodHandle LIST_GET;

    static
    {
        try
        {
            LIST_GET = MethodHandles.publicLookup().findVirtual(List.class, "get",
                MethodType.methodType(Object.class, int.class));
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * The accessor of {@code name} in samples of {@code type}, or null when the path's first member is not a member
     * of the type (the caller decides whether the name is an enumerator instead).
     *
     * @throws FilterSyntaxException naming the member and the type when a later member does not exist or an index
     *         is applied to a member that is not an array or sequence.
     */
    static FieldAccess resolve(final String expression, final Class<?> type, final Ast.Name name)
    {
        MethodHandle handle = MethodHandles.identity(Object.class);
        Type current = type;
        for (int i = 0; i < name.steps().size(); i++)
        {
            final Ast.Step step = name.steps().get(i);
            final Class<?> owner = raw(current);
            final Field field = member(owner, step.member());
            if (field == null)
            {
                if (i == 0)
                {
                    return null;
                }
                throw unknown(expression, name, step.member(), owner);
            }
            handle = MethodHandles.filterReturnValue(handle, getter(field).asType(
                MethodType.methodType(field.getType(), Object.class)));
            current = field.getGenericType();
            if (step.index() >= 0)
            {
                final Type element = element(current);
                if (element == null)
                {
                    throw new FilterSyntaxException(expression, name.position(), "member '" + step.member() +
                        "' of type '" + owner.getName() + "' is not an array or sequence, so '[" + step.index() +
                        "]' does not apply");
                }
                handle = MethodHandles.filterReturnValue(handle, elementGetter(raw(current), raw(element),
                    step.index()));
                current = element;
            }
            handle = handle.asType(MethodType.methodType(raw(current), Object.class));
            if (i + 1 < name.steps().size())
            {
                handle = handle.asType(MethodType.methodType(Object.class, Object.class));
            }
        }
        return new FieldAccess(handle, raw(current), name.text());
    }

    /** The error for a path whose first member is neither a member of the type nor an enumerator. */
    static FilterSyntaxException unknown(final String expression, final Ast.Name name, final String member,
        final Class<?> owner)
    {
        final List<String> members = new ArrayList<>();
        for (final Field field : owner.getFields())
        {
            if (!Modifier.isStatic(field.getModifiers()))
            {
                members.add(field.getName());
            }
        }
        return new FilterSyntaxException(expression, name.position(), "unknown field '" + name.text() + "': type '" +
            owner.getName() + "' has no member '" + member + "' (members: " + String.join(", ", members) + ")");
    }

    private static Field member(final Class<?> owner, final String member)
    {
        for (final String candidate : new String[] {member, "_" + member})
        {
            try
            {
                final Field field = owner.getField(candidate);
                if (!Modifier.isStatic(field.getModifiers()))
                {
                    return field;
                }
            }
            catch (final NoSuchFieldException ex)
            {
                // try the escaped name, then report
            }
        }
        return null;
    }

    private static MethodHandle getter(final Field field)
    {
        try
        {
            return MethodHandles.publicLookup().unreflectGetter(field);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalArgumentException("member " + field + " is not readable", ex);
        }
    }

    private static MethodHandle elementGetter(final Class<?> container, final Class<?> element, final int index)
    {
        if (container.isArray())
        {
            return MethodHandles.insertArguments(MethodHandles.arrayElementGetter(container), 1, index);
        }
        return MethodHandles.insertArguments(LIST_GET, 1, index).asType(MethodType.methodType(element,
            container));
    }

    private static Type element(final Type container)
    {
        final Class<?> raw = raw(container);
        if (raw.isArray())
        {
            return raw.getComponentType();
        }
        if (List.class.isAssignableFrom(raw) && container instanceof ParameterizedType p &&
            p.getActualTypeArguments().length == 1)
        {
            return p.getActualTypeArguments()[0];
        }
        return null;
    }

    private static Class<?> raw(final Type type)
    {
        if (type instanceof Class<?> c)
        {
            return c;
        }
        if (type instanceof ParameterizedType p)
        {
            return (Class<?>)p.getRawType();
        }
        return Object.class;
    }
}
