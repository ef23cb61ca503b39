package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.Types;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a struct: extensibility and the other type annotations, its base, and each member's type, key and
 * optional flags, member id (sequential, @id, @hashid or @autoid(HASH), XTypes 1.3 §7.3.1.2.1), @default and
 * @range. Confined to the compiling thread.
 */
final class StructResolver
{
    private final TypeResolver types;
    private final ConstEvaluator evaluator;
    private final AnnotationReader annotations;

    StructResolver(final TypeResolver types, final ConstEvaluator evaluator, final AnnotationReader annotations)
    {
        this.types = types;
        this.evaluator = evaluator;
        this.annotations = annotations;
    }

    void resolveStruct(final Decls.Struct s) throws IdlException
    {
        if (!s.defined)
        {
            return;
        }
        final Map<String, Annotation> a = annotations.check(s.annotations, Set.of("final", "appendable",
            "mutable", "extensibility", "topic", "nested", "autoid", "verbatim", "default_nested"), "a struct");
        s.extensibility = annotations.extensibility(a, s.pos);
        s.topic = a.containsKey("topic");
        s.nested = a.containsKey("nested") && annotations.boolParam(a.get("nested"), s.scope);
        s.hashIds = annotations.autoidHash(a.get("autoid"), s.scope);
        if (s.baseRef != null)
        {
            resolveBase(s);
        }
        final Map<String, Decls.Member> names = new HashMap<>();
        final Map<Integer, Decls.Member> ids = new HashMap<>();
        int nextId = 0;
        if (s.base != null)
        {
            for (final Decls.Member m : s.base.allMembers())
            {
                names.put(m.name.toLowerCase(Locale.ROOT), m);
                ids.put(m.id, m);
                nextId = Math.max(nextId, m.id + 1);
            }
        }
        for (final Decls.Member m : s.members)
        {
            nextId = resolveMember(s, m, names, ids, nextId);
        }
    }

    private void resolveBase(final Decls.Struct s) throws IdlException
    {
        types.resolveType(s.baseRef, s.scope);
        if (!(Types.target(s.baseRef) instanceof Decls.Struct base) || !base.defined)
        {
            throw new IdlException(s.baseRef.pos, "base of struct '" + s.name + "' must be a defined struct");
        }
        if (base.extensibility != s.extensibility)
        {
            throw new IdlException(s.baseRef.pos, "struct '" + s.name + "' is "
                + AnnotationReader.lower(s.extensibility) + " but its base '" + base.name + "' is "
                + AnnotationReader.lower(base.extensibility));
        }
        s.base = base;
    }

    /** Resolves one member of {@code s}; returns the id the next member gets by default. */
    private int resolveMember(final Decls.Struct s, final Decls.Member m, final Map<String, Decls.Member> names,
        final Map<Integer, Decls.Member> ids, final int nextId) throws IdlException
    {
        final Decls.Member clash = names.put(m.name.toLowerCase(Locale.ROOT), m);
        if (clash != null)
        {
            throw new IdlException(m.pos, "duplicate member name '" + m.name + "' in struct '" + s.name
                + "' (first at " + clash.pos + ")");
        }
        types.resolveType(m.type, s.scope);
        final Map<String, Annotation> ma = annotations.check(m.annotations, Set.of("key", "optional",
            "id", "hashid", "default", "range", "min", "max", "unit", "external", "must_understand", "verbatim"),
            "a struct member");
        m.key = ma.containsKey("key") && annotations.boolParam(ma.get("key"), s.scope);
        m.optional = ma.containsKey("optional") && annotations.boolParam(ma.get("optional"), s.scope);
        if (m.key && m.optional)
        {
            throw new IdlException(ma.get("optional").pos(), "key member '" + m.name + "' cannot be @optional");
        }
        m.id = memberId(s, m, ma, nextId);
        final Decls.Member idClash = ids.put(m.id, m);
        if (idClash != null)
        {
            throw new IdlException(ma.containsKey("id") ? ma.get("id").pos() : m.pos, "member id " + m.id
                + " of '" + m.name + "' is already used by '" + idClash.name + "'");
        }
        defaultAndRange(s, m, ma);
        return m.id + 1;
    }

    /** XTypes 1.3 §7.3.1.2.1: @id, else @hashid, else the hash of the name under @autoid(HASH), else sequential. */
    private int memberId(final Decls.Struct s, final Decls.Member m, final Map<String, Annotation> ma,
        final int nextId) throws IdlException
    {
        if (ma.containsKey("id"))
        {
            return (int)annotations.intParam(ma.get("id"), s.scope, 0, 0x0FFFFFFF);
        }
        if (ma.containsKey("hashid"))
        {
            final Expr e = ma.get("hashid").params().get("value");
            final String hashName = e == null ? m.name : annotations.stringValue(e, s.scope);
            return hashId(hashName);
        }
        return s.hashIds ? hashId(m.name) : nextId;
    }

    private void defaultAndRange(final Decls.Struct s, final Decls.Member m, final Map<String, Annotation> ma)
        throws IdlException
    {
        if (ma.containsKey("default"))
        {
            m.defaultValue = value(ma.get("default"), "value", m, s.scope, "@default of '" + m.name + "'");
        }
        if (ma.containsKey("range"))
        {
            final Annotation r = ma.get("range");
            requireNumeric(m, r.pos());
            m.rangeMin = value(r, "min", m, s.scope, "@range min");
            m.rangeMax = value(r, "max", m, s.scope, "@range max");
            if (compare(m.rangeMin, m.rangeMax) > 0)
            {
                throw new IdlException(r.pos(), "@range min is greater than max");
            }
            if (m.defaultValue != null && (compare(m.defaultValue, m.rangeMin) < 0
                || compare(m.defaultValue, m.rangeMax) > 0))
            {
                throw new IdlException(ma.get("default").pos(), "@default of '" + m.name
                    + "' lies outside its @range");
            }
        }
    }

    /** The annotation parameter {@code name}, evaluated and converted to the member's type. */
    private Object value(final Annotation a, final String name, final Decls.Member m, final String scope,
        final String what) throws IdlException
    {
        final Expr e = AnnotationReader.param(a, name);
        return ConstEvaluator.coerce(evaluator.evaluate(e, scope), m.type, e.pos(), what);
    }

    private void requireNumeric(final Decls.Member m, final SourcePos pos) throws IdlException
    {
        final PrimKind k = Types.prim(m.type);
        if (k == null || !(k.isInteger() || k.isFloat()))
        {
            throw new IdlException(pos, "@range needs a numeric member, '" + m.name + "' is not");
        }
    }

    private static int compare(final Object a, final Object b)
    {
        if (a instanceof BigInteger x && b instanceof BigInteger y)
        {
            return x.compareTo(y);
        }
        return Double.compare(((Number)a).doubleValue(), ((Number)b).doubleValue());
    }

    /** XTypes 1.3 §7.3.1.2.1.1: member id from the first 4 bytes of MD5(name), little-endian, masked to 28 bits. */
    private static int hashId(final String name)
    {
        try
        {
            final byte[] md5 = MessageDigest.getInstance("MD5").digest(name.getBytes(StandardCharsets.UTF_8));
            final int v = (md5[0] & 0xff) | (md5[1] & 0xff) << 8 | (md5[2] & 0xff) << 16 | (md5[3] & 0xff) << 24;
            return v & 0x0FFFFFFF;
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
