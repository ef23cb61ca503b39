package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Annotations (XTypes 1.3 §7.3.1): checks that each is known, allowed on its target and given once, and reads
 * their parameters (booleans, integers in a range, strings, extensibility, autoid). Parameter values are
 * constant expressions, evaluated by the {@link ConstEvaluator}. Confined to the compiling thread.
 */
final class AnnotationReader
{
    private final ConstEvaluator evaluator;

    AnnotationReader(final ConstEvaluator evaluator)
    {
        this.evaluator = evaluator;
    }

    private static final Set<String> KNOWN = Set.of("key", "optional", "id", "autoid", "hashid", "final",
        "appendable", "mutable", "extensibility", "default", "range", "min", "max", "topic", "nested", "value",
        "bit_bound", "position", "unit", "external", "must_understand", "verbatim", "default_literal",
        "default_nested");

    Map<String, Annotation> check(final List<Annotation> annotations, final Set<String> allowed,
        final String target) throws IdlException
    {
        final Map<String, Annotation> result = new LinkedHashMap<>();
        for (final Annotation a : annotations)
        {
            final String name = a.name().startsWith("::") ? a.name().substring(2) : a.name();
            if (!KNOWN.contains(name))
            {
                throw new IdlException(a.pos(), "unknown annotation @" + a.name());
            }
            if (!allowed.contains(name))
            {
                throw new IdlException(a.pos(), "annotation @" + name + " cannot be applied to " + target);
            }
            if (result.put(name, a) != null)
            {
                throw new IdlException(a.pos(), "annotation @" + name + " given twice");
            }
        }
        return result;
    }

    Decls.Extensibility extensibility(final Map<String, Annotation> a, final SourcePos pos)
        throws IdlException
    {
        Decls.Extensibility result = null;
        SourcePos where = null;
        for (final String k : List.of("final", "appendable", "mutable", "extensibility"))
        {
            final Annotation an = a.get(k);
            if (an == null)
            {
                continue;
            }
            final Decls.Extensibility e;
            if (k.equals("extensibility"))
            {
                final Expr v = param(an, "value");
                if (!(v instanceof Expr.Name n) || !Set.of("FINAL", "APPENDABLE", "MUTABLE").contains(n.name()))
                {
                    throw new IdlException(v.pos(), "@extensibility takes FINAL, APPENDABLE or MUTABLE");
                }
                e = Decls.Extensibility.valueOf(n.name());
            }
            else
            {
                if (!an.params().isEmpty())
                {
                    throw new IdlException(an.pos(), "@" + k + " takes no parameters");
                }
                e = Decls.Extensibility.valueOf(k.toUpperCase(Locale.ROOT));
            }
            if (result != null && result != e)
            {
                throw new IdlException(an.pos(), "conflicting extensibility: already " + lower(result) + " at "
                    + where);
            }
            result = e;
            where = an.pos();
        }
        // XTypes 1.3 §7.2.2.4.4.4.2: without an annotation a type is appendable; DDS practice (and Sirocco) take
        // FINAL for plain IDL so that existing wire formats stay plain CDR. Documented in docs/idl.md.
        return result == null ? Decls.Extensibility.FINAL : result;
    }

    boolean autoidHash(final Annotation a, final String scope) throws IdlException
    {
        if (a == null)
        {
            return false;
        }
        final Expr v = a.params().get("value");
        if (v == null)
        {
            return false;
        }
        if (!(v instanceof Expr.Name n) || !Set.of("SEQUENTIAL", "HASH").contains(n.name()))
        {
            throw new IdlException(v.pos(), "@autoid takes SEQUENTIAL or HASH");
        }
        return n.name().equals("HASH");
    }

    static Expr param(final Annotation a, final String name) throws IdlException
    {
        final Expr e = a.params().get(name);
        if (e == null)
        {
            throw new IdlException(a.pos(), "@" + a.name() + " needs a '" + name + "' parameter");
        }
        return e;
    }

    boolean boolParam(final Annotation a, final String scope) throws IdlException
    {
        for (final String k : a.params().keySet())
        {
            if (!k.equals("value"))
            {
                throw new IdlException(a.pos(), "@" + a.name() + " has no parameter '" + k + "'");
            }
        }
        final Expr e = a.params().get("value");
        if (e == null)
        {
            return true;
        }
        if (evaluator.evaluate(e, scope) instanceof Boolean b)
        {
            return b;
        }
        throw new IdlException(e.pos(), "@" + a.name() + " takes TRUE or FALSE");
    }

    long intParam(final Annotation a, final String scope, final long min, final long max) throws IdlException
    {
        final Expr e = param(a, "value");
        if (a.params().size() != 1)
        {
            throw new IdlException(a.pos(), "@" + a.name() + " takes one integer parameter");
        }
        if (!(evaluator.evaluate(e, scope) instanceof BigInteger b))
        {
            throw new IdlException(e.pos(), "@" + a.name() + " takes an integer");
        }
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0)
        {
            throw new IdlException(e.pos(), "@" + a.name() + " value " + b + " is out of range (" + min + ".." + max
                + ")");
        }
        return b.longValue();
    }

    String stringValue(final Expr e, final String scope) throws IdlException
    {
        if (evaluator.evaluate(e, scope) instanceof String s)
        {
            return s;
        }
        throw new IdlException(e.pos(), "expected a string");
    }

    static String lower(final Decls.Extensibility e)
    {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
