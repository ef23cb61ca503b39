package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a union: extensibility, discriminator type, case labels (evaluated, converted to the discriminator type,
 * no duplicates), member names and annotations, and the implicit default discriminator value. Confined to the
 * compiling thread.
 */
final class UnionResolver
{
    private final TypeResolver types;
    private final ConstEvaluator evaluator;
    private final AnnotationReader annotations;

    UnionResolver(final TypeResolver types, final ConstEvaluator evaluator, final AnnotationReader annotations)
    {
        this.types = types;
        this.evaluator = evaluator;
        this.annotations = annotations;
    }

    void resolveUnion(final Decls.Union u) throws IdlException
    {
        if (!u.defined)
        {
            return;
        }
        final Map<String, Annotation> a = annotations.check(u.annotations, Set.of("final", "appendable",
            "mutable", "extensibility", "nested", "topic", "verbatim", "autoid"), "a union");
        u.extensibility = annotations.extensibility(a, u.pos);
        if (u.extensibility == Decls.Extensibility.MUTABLE)
        {
            throw new IdlException(a.containsKey("mutable") ? a.get("mutable").pos() : a.get("extensibility").pos(),
                "@mutable unions are not supported; use @final or @appendable");
        }
        final TypeRef d = discriminator(u);
        final Set<Object> seen = new HashSet<>();
        final Set<String> names = new HashSet<>();
        int defaults = 0;
        for (final Decls.UnionCase c : u.cases)
        {
            if (c.isDefault)
            {
                defaults++;
                if (defaults > 1)
                {
                    throw new IdlException(c.member.pos, "union '" + u.name + "' has more than one default case");
                }
            }
            resolveCase(u, c, seen, names);
        }
        u.defaultDiscriminator = freeLabel(u, seen, d);
        if (u.defaultDiscriminator == null && defaults > 0)
        {
            throw new IdlException(u.pos, "union '" + u.name + "' has a default case but its labels cover every "
                + "discriminator value");
        }
    }

    /** Resolves the discriminator type and checks it may be one; returns it without typedefs. */
    private TypeRef discriminator(final Decls.Union u) throws IdlException
    {
        types.resolveType(u.discriminator, u.scope);
        final TypeRef d = Types.unalias(u.discriminator);
        final boolean okPrim = d instanceof TypeRef.Prim p && p.kind() != PrimKind.FLOAT32
            && p.kind() != PrimKind.FLOAT64;
        final boolean okEnum = d instanceof TypeRef.Named n && n.target instanceof Decls.Enum;
        if (!okPrim && !okEnum)
        {
            throw new IdlException(u.discriminator.pos(), "union discriminator must be an integer, char, boolean or "
                + "enum type");
        }
        return d;
    }

    /** Resolves one case: labels (into {@code seen}), member name (into {@code names}), type, annotations. */
    private void resolveCase(final Decls.Union u, final Decls.UnionCase c, final Set<Object> seen,
        final Set<String> names) throws IdlException
    {
        for (final Expr label : c.labels)
        {
            final Object v = ConstEvaluator.coerce(evaluator.evaluate(label, u.scope), u.discriminator, label.pos(),
                "case label");
            if (!seen.add(v))
            {
                throw new IdlException(label.pos(), "duplicate case label " + show(v));
            }
            c.labelValues.add(v);
        }
        if (!names.add(c.member.name.toLowerCase(Locale.ROOT)))
        {
            throw new IdlException(c.member.pos, "duplicate member name '" + c.member.name + "' in union '"
                + u.name + "'");
        }
        types.resolveType(c.member.type, u.scope);
        final Map<String, Annotation> ma = annotations.check(c.member.annotations, Set.of("id", "unit",
            "verbatim", "key", "external"), "a union member");
        if (ma.containsKey("key"))
        {
            throw new IdlException(ma.get("key").pos(), "@key is not allowed on union member '" + c.member.name
                + "': a union member cannot be a key");
        }
    }

    private static String show(final Object v)
    {
        return v instanceof Decls.EnumValue e ? e.name : String.valueOf(v);
    }

    /** The smallest discriminator value that no label uses, or null when the labels cover every value. */
    private static Object freeLabel(final Decls.Union u, final Set<Object> used, final TypeRef d)
    {
        if (d instanceof TypeRef.Named n && n.target instanceof Decls.Enum e)
        {
            for (final Decls.Enumerator en : e.enumerators)
            {
                boolean taken = false;
                for (final Object o : used)
                {
                    taken |= o instanceof Decls.EnumValue ev && ev.enumerator == en;
                }
                if (!taken)
                {
                    return new Decls.EnumValue(e, en);
                }
            }
            return null;
        }
        final PrimKind k = ((TypeRef.Prim)d).kind();
        if (k == PrimKind.BOOLEAN)
        {
            return !used.contains(Boolean.FALSE) ? Boolean.FALSE : !used.contains(Boolean.TRUE) ? Boolean.TRUE : null;
        }
        if (k == PrimKind.CHAR || k == PrimKind.WCHAR)
        {
            for (char c = 0; c < 0xffff; c++)
            {
                if (!used.contains(c))
                {
                    return c;
                }
            }
            return null;
        }
        BigInteger v = BigInteger.ZERO;
        final BigInteger max = ConstEvaluator.range(k)[1];
        while (v.compareTo(max) <= 0)
        {
            if (!used.contains(v))
            {
                return v;
            }
            v = v.add(BigInteger.ONE);
        }
        return null;
    }
}
