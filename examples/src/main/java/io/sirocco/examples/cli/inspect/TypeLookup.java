package io.sirocco.examples.cli.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The generated Java class of a type the discovery data names. Discovery carries the IDL type name only (no XTypes
 * TypeObject), so a type can be decoded only when its generated class is on the class path: {@code a::b::T} is class
 * {@code a.b.T} (the IDL compiler's default mapping, no package prefix), and a global-scope {@code T} is {@code T}
 * in the unnamed package or in one of the {@code globalPackages} (the examples use {@code shapes}).
 */
public final class TypeLookup
{
    private final ClassLoader loader;
    private final List<String> globalPackages;

    public TypeLookup(final ClassLoader loader, final List<String> globalPackages)
    {
        this.loader = loader;
        this.globalPackages = List.copyOf(globalPackages);
    }

    /** The class names tried for an IDL type name, in order. */
    public List<String> candidates(final String idlTypeName)
    {
        final String name = idlTypeName.startsWith("::") ? idlTypeName.substring(2) : idlTypeName;
        final List<String> names = new ArrayList<>();
        names.add(name.replace("::", "."));
        if (!name.contains("::"))
        {
            for (final String p : globalPackages)
            {
                names.add(p + "." + name);
            }
        }
        return names;
    }

    /** The generated class (one with a {@code <Name>TypeSupport} beside it), if on the class path. */
    public Optional<Class<?>> find(final String idlTypeName)
    {
        for (final String candidate : candidates(idlTypeName))
        {
            try
            {
                final Class<?> type = Class.forName(candidate, false, loader);
                Class.forName(candidate + "TypeSupport", false, loader);
                return Optional.of(type);
            }
            catch (final ClassNotFoundException ex)
            {
                // not this mapping: try the next
            }
        }
        return Optional.empty();
    }
}
