package io.sirocco.idl.model;

import java.util.ArrayList;
import java.util.List;

/** Queries over resolved types: typedef unaliasing, array flattening, keyability and fixed size. */
public final class Types
{
    private Types()
    {
    }

    /** Follows typedefs until a non-typedef type. Arrays keep their element as written. */
    public static TypeRef unalias(final TypeRef type)
    {
        TypeRef t = type;
        while (t instanceof TypeRef.Named n && n.target instanceof Decls.Typedef td)
        {
            t = td.type;
        }
        return t;
    }

    /** The declaration a type names after typedefs, or null for anonymous types. */
    public static Decl target(final TypeRef type)
    {
        return unalias(type) instanceof TypeRef.Named n ? n.target : null;
    }

    /** The dimensions of an array type with nested typedef'd arrays flattened, outermost first. */
    public static int[] dims(final TypeRef type)
    {
        final List<Integer> dims = new ArrayList<>();
        TypeRef t = unalias(type);
        while (t instanceof TypeRef.Arr a)
        {
            for (final int d : a.dims)
            {
                dims.add(d);
            }
            t = unalias(a.element);
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The element of an array type after flattening all array levels. */
    public static TypeRef arrayElement(final TypeRef type)
    {
        TypeRef t = unalias(type);
        while (t instanceof TypeRef.Arr a)
        {
            t = unalias(a.element);
        }
        return t;
    }

    /** Primitive, enum or bitmask: serialized without a DHEADER in collections (XTypes 1.3 §7.4.3.5.3). */
    public static boolean isPrimitiveLike(final TypeRef type)
    {
        final TypeRef t = unalias(type);
        if (t instanceof TypeRef.Prim)
        {
            return true;
        }
        return t instanceof TypeRef.Named n && (n.target instanceof Decls.Enum || n.target instanceof Decls.Bitmask);
    }

    public static PrimKind prim(final TypeRef type)
    {
        return unalias(type) instanceof TypeRef.Prim p ? p.kind() : null;
    }
}
