package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Semantic analysis: builds the scope table, resolves scoped names (IDL 4.2 §7.5), evaluates constants with range
 * checks, applies and checks annotations (XTypes 1.3 §7.3.1), assigns member ids, applies {@code #pragma keylist},
 * checks keys and rejects recursion that does not go through a sequence. Every error names the exact position.
 */
public final class Resolver
{
    private final Map<String, Decl> symbols = new LinkedHashMap<>();
    private final List<Decl> types = new ArrayList<>();

    public Map<String, Decl> symbols()
    {
        return symbols;
    }

    /** Every struct, union, enum, bitmask, bitset and typedef in declaration order (for code generation). */
    public List<Decl> types()
    {
        return types;
    }

    public Resolver resolve(final List<Decl> topLevel, final List<Decls.Keylist> keylists) throws IdlException
    {
        declare(topLevel);
        resolveAll(topLevel);
        for (final Decls.Keylist keylist : keylists)
        {
            applyKeylist(keylist);
        }
        for (final Decl d : types)
        {
            if (d instanceof Decls.Struct s)
            {
                checkKeys(s);
            }
        }
        checkRecursion();
        return this;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Declaration

    private void declare(final List<Decl> decls) throws IdlException
    {
        for (final Decl d : decls)
        {
            final Decl existing = symbols.get(d.scopedName());
            if (d instanceof Decls.Module m)
            {
                if (existing != null && !(existing instanceof Decls.Module))
                {
                    throw duplicate(d, existing);
                }
                symbols.putIfAbsent(d.scopedName(), d);
                declare(m.definitions);
                continue;
            }
            if (existing != null)
            {
                final boolean existingForward = existing instanceof Decls.Struct s && !s.defined
                    || existing instanceof Decls.Union u && !u.defined;
                final boolean newForward = d instanceof Decls.Struct s && !s.defined
                    || d instanceof Decls.Union u && !u.defined;
                if (existing.getClass() == d.getClass() && (existingForward || newForward))
                {
                    if (existingForward && !newForward)
                    {
                        symbols.put(d.scopedName(), d);
                        types.add(d);
                    }
                    continue;
                }
                throw duplicate(d, existing);
            }
            symbols.put(d.scopedName(), d);
            if (!(d instanceof Decls.Const))
            {
                if (!(d instanceof Decls.Struct s && !s.defined) && !(d instanceof Decls.Union u && !u.defined))
                {
                    types.add(d);
                }
            }
            if (d instanceof Decls.Enum e)
            {
                for (final Decls.Enumerator enumerator : e.enumerators)
                {
                    final Decls.EnumValue v = new Decls.EnumValue(e, enumerator);
                    final Decl clash = symbols.get(v.scopedName());
                    if (clash != null)
                    {
                        throw duplicate(v, clash);
                    }
                    symbols.put(v.scopedName(), v);
                }
            }
        }
    }

    private static IdlException duplicate(final Decl d, final Decl existing)
    {
        return new IdlException(d.pos, "duplicate name '" + d.name + "': already declared as " + existing.kind()
            + " at " + existing.pos);
    }

    private Decl lookup(final String name, final String scope, final SourcePos pos) throws IdlException
    {
        return lookup(name, scope, pos, "name");
    }

    private Decl lookup(final String name, final String scope, final SourcePos pos, final String what)
        throws IdlException
    {
        if (name.startsWith("::"))
        {
            final Decl d = symbols.get(name.substring(2));
            if (d == null)
            {
                throw new IdlException(pos, "unknown " + what + " '" + name + "'");
            }
            return d;
        }
        String s = scope;
        while (true)
        {
            final Decl d = symbols.get(s.isEmpty() ? name : s + "::" + name);
            if (d != null)
            {
                return d;
            }
            if (s.isEmpty())
            {
                break;
            }
            final int cut = s.lastIndexOf("::");
            s = cut < 0 ? "" : s.substring(0, cut);
        }
        throw new IdlException(pos, "unknown " + what + " '" + name + "'");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Resolution, in declaration order so that constants may use earlier constants

    private void resolveAll(final List<Decl> decls) throws IdlException
    {
        for (final Decl d : decls)
        {
            switch (d)
            {
                case Decls.Module m -> resolveAll(m.definitions);
                case Decls.Struct s -> resolveStruct(s);
                case Decls.Union u -> resolveUnion(u);
                case Decls.Enum e -> resolveEnum(e);
                case Decls.Typedef t ->
                {
                    checkAnnotations(t.annotations, Set.of("verbatim"), "a typedef");
                    resolveType(t.type, t.scope);
                }
                case Decls.Const c -> resolveConst(c);
                case Decls.Bitmask b -> resolveBitmask(b);
                case Decls.Bitset b -> resolveBitset(b);
                default -> throw new IdlException(d.pos, "unexpected definition");
            }
        }
    }

    private void resolveType(final TypeRef type, final String scope) throws IdlException
    {
        switch (type)
        {
            case TypeRef.Prim p ->
            {
            }
            case TypeRef.Str s -> s.bound = s.boundExpr == null ? 0 : positive(s.boundExpr, scope, "string bound");
            case TypeRef.Seq s ->
            {
                resolveType(s.element, scope);
                s.bound = s.boundExpr == null ? 0 : positive(s.boundExpr, scope, "sequence bound");
            }
            case TypeRef.Arr a ->
            {
                resolveType(a.element, scope);
                a.dims = new int[a.dimExprs.size()];
                for (int i = 0; i < a.dims.length; i++)
                {
                    a.dims[i] = (int)positive(a.dimExprs.get(i), scope, "array dimension");
                }
            }
            case TypeRef.Named n ->
            {
                final Decl d = lookup(n.name, scope, n.pos, "type");
                if (d instanceof Decls.Module || d instanceof Decls.Const || d instanceof Decls.EnumValue)
                {
                    throw new IdlException(n.pos, "'" + n.name + "' is a " + d.kind() + ", not a type");
                }
                n.target = d;
            }
        }
    }

    private long positive(final Expr e, final String scope, final String what) throws IdlException
    {
        final Object v = evaluate(e, scope);
        if (!(v instanceof BigInteger b))
        {
            throw new IdlException(e.pos(), what + " must be an integer");
        }
        if (b.signum() <= 0 || b.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0)
        {
            throw new IdlException(e.pos(), what + " " + b + " is out of range (1.." + Integer.MAX_VALUE + ")");
        }
        return b.longValue();
    }

    private void resolveStruct(final Decls.Struct s) throws IdlException
    {
        if (!s.defined)
        {
            return;
        }
        final Map<String, Annotation> a = checkAnnotations(s.annotations, Set.of("final", "appendable", "mutable",
            "extensibility", "topic", "nested", "autoid", "verbatim", "default_nested"), "a struct");
        s.extensibility = extensibility(a, s.pos);
        s.topic = a.containsKey("topic");
        s.nested = a.containsKey("nested") && boolParam(a.get("nested"), s.scope);
        s.hashIds = autoidHash(a.get("autoid"), s.scope);
        if (s.baseRef != null)
        {
            resolveType(s.baseRef, s.scope);
            if (!(Types.target(s.baseRef) instanceof Decls.Struct base) || !base.defined)
            {
                throw new IdlException(s.baseRef.pos, "base of struct '" + s.name + "' must be a defined struct");
            }
            if (base.extensibility != s.extensibility)
            {
                throw new IdlException(s.baseRef.pos, "struct '" + s.name + "' is " + lower(s.extensibility)
                    + " but its base '" + base.name + "' is " + lower(base.extensibility));
            }
            s.base = base;
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
            final Decls.Member clash = names.put(m.name.toLowerCase(Locale.ROOT), m);
            if (clash != null)
            {
                throw new IdlException(m.pos, "duplicate member name '" + m.name + "' in struct '" + s.name
                    + "' (first at " + clash.pos + ")");
            }
            resolveType(m.type, s.scope);
            final Map<String, Annotation> ma = checkAnnotations(m.annotations, Set.of("key", "optional", "id",
                "hashid", "default", "range", "min", "max", "unit", "external", "must_understand", "verbatim"),
                "a struct member");
            m.key = ma.containsKey("key") && boolParam(ma.get("key"), s.scope);
            m.optional = ma.containsKey("optional") && boolParam(ma.get("optional"), s.scope);
            if (m.key && m.optional)
            {
                throw new IdlException(ma.get("optional").pos(), "key member '" + m.name + "' cannot be @optional");
            }
            if (ma.containsKey("id"))
            {
                m.id = (int)intParam(ma.get("id"), s.scope, 0, 0x0FFFFFFF);
            }
            else if (ma.containsKey("hashid"))
            {
                final Expr e = ma.get("hashid").params().get("value");
                final String hashName = e == null ? m.name : stringValue(e, s.scope);
                m.id = hashId(hashName);
            }
            else
            {
                m.id = s.hashIds ? hashId(m.name) : nextId;
            }
            nextId = m.id + 1;
            final Decls.Member idClash = ids.put(m.id, m);
            if (idClash != null)
            {
                throw new IdlException(ma.containsKey("id") ? ma.get("id").pos() : m.pos, "member id " + m.id
                    + " of '" + m.name + "' is already used by '" + idClash.name + "'");
            }
            if (ma.containsKey("default"))
            {
                m.defaultValue = coerce(evaluate(param(ma.get("default"), "value"), s.scope), m.type,
                    param(ma.get("default"), "value").pos(), "@default of '" + m.name + "'");
            }
            if (ma.containsKey("range"))
            {
                final Annotation r = ma.get("range");
                requireNumeric(m, r.pos());
                m.rangeMin = coerce(evaluate(param(r, "min"), s.scope), m.type, param(r, "min").pos(), "@range min");
                m.rangeMax = coerce(evaluate(param(r, "max"), s.scope), m.type, param(r, "max").pos(), "@range max");
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

    private static String lower(final Decls.Extensibility e)
    {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private Decls.Extensibility extensibility(final Map<String, Annotation> a, final SourcePos pos)
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

    private boolean autoidHash(final Annotation a, final String scope) throws IdlException
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

    private Map<String, Annotation> checkAnnotations(final List<Annotation> annotations, final Set<String> allowed,
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

    private static final Set<String> KNOWN = Set.of("key", "optional", "id", "autoid", "hashid", "final",
        "appendable", "mutable", "extensibility", "default", "range", "min", "max", "topic", "nested", "value",
        "bit_bound", "position", "unit", "external", "must_understand", "verbatim", "default_literal",
        "default_nested");

    private static Expr param(final Annotation a, final String name) throws IdlException
    {
        final Expr e = a.params().get(name);
        if (e == null)
        {
            throw new IdlException(a.pos(), "@" + a.name() + " needs a '" + name + "' parameter");
        }
        return e;
    }

    private boolean boolParam(final Annotation a, final String scope) throws IdlException
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
        if (evaluate(e, scope) instanceof Boolean b)
        {
            return b;
        }
        throw new IdlException(e.pos(), "@" + a.name() + " takes TRUE or FALSE");
    }

    private long intParam(final Annotation a, final String scope, final long min, final long max) throws IdlException
    {
        final Expr e = param(a, "value");
        if (a.params().size() != 1)
        {
            throw new IdlException(a.pos(), "@" + a.name() + " takes one integer parameter");
        }
        if (!(evaluate(e, scope) instanceof BigInteger b))
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

    private String stringValue(final Expr e, final String scope) throws IdlException
    {
        if (evaluate(e, scope) instanceof String s)
        {
            return s;
        }
        throw new IdlException(e.pos(), "expected a string");
    }

    private void resolveUnion(final Decls.Union u) throws IdlException
    {
        if (!u.defined)
        {
            return;
        }
        final Map<String, Annotation> a = checkAnnotations(u.annotations, Set.of("final", "appendable", "mutable",
            "extensibility", "nested", "topic", "verbatim", "autoid"), "a union");
        u.extensibility = extensibility(a, u.pos);
        if (u.extensibility == Decls.Extensibility.MUTABLE)
        {
            throw new IdlException(a.containsKey("mutable") ? a.get("mutable").pos() : a.get("extensibility").pos(),
                "@mutable unions are not supported; use @final or @appendable");
        }
        resolveType(u.discriminator, u.scope);
        final TypeRef d = Types.unalias(u.discriminator);
        final boolean okPrim = d instanceof TypeRef.Prim p && p.kind() != PrimKind.FLOAT32
            && p.kind() != PrimKind.FLOAT64;
        final boolean okEnum = d instanceof TypeRef.Named n && n.target instanceof Decls.Enum;
        if (!okPrim && !okEnum)
        {
            throw new IdlException(u.discriminator.pos(), "union discriminator must be an integer, char, boolean or "
                + "enum type");
        }
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
            for (final Expr label : c.labels)
            {
                final Object v = coerce(evaluate(label, u.scope), u.discriminator, label.pos(), "case label");
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
            resolveType(c.member.type, u.scope);
            final Map<String, Annotation> ma = checkAnnotations(c.member.annotations, Set.of("id", "unit", "verbatim",
                "key", "external"), "a union member");
            if (ma.containsKey("key"))
            {
                throw new IdlException(ma.get("key").pos(), "@key is not allowed on union member '" + c.member.name
                    + "': a union member cannot be a key");
            }
        }
        u.defaultDiscriminator = freeLabel(u, seen, d);
        if (u.defaultDiscriminator == null && defaults > 0)
        {
            throw new IdlException(u.pos, "union '" + u.name + "' has a default case but its labels cover every "
                + "discriminator value");
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
        final BigInteger max = range(k)[1];
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

    private void resolveEnum(final Decls.Enum e) throws IdlException
    {
        final Map<String, Annotation> a = checkAnnotations(e.annotations, Set.of("bit_bound", "final", "appendable",
            "extensibility", "nested", "verbatim"), "an enum");
        if (a.containsKey("bit_bound"))
        {
            e.bitBound = (int)intParam(a.get("bit_bound"), e.scope, 1, 32);
        }
        int next = 0;
        final Map<Integer, Decls.Enumerator> values = new HashMap<>();
        final Set<String> names = new HashSet<>();
        for (final Decls.Enumerator en : e.enumerators)
        {
            if (!names.add(en.name.toLowerCase(Locale.ROOT)))
            {
                throw new IdlException(en.pos, "duplicate enumerator '" + en.name + "'");
            }
            final Map<String, Annotation> ea = checkAnnotations(en.annotations, Set.of("value", "default_literal"),
                "an enumerator");
            final long limit = e.bitBound == 32 ? Integer.MAX_VALUE : (1L << e.bitBound) - 1;
            en.value = ea.containsKey("value")
                ? (int)intParam(ea.get("value"), e.scope, e.bitBound == 32 ? Integer.MIN_VALUE : 0, limit)
                : next;
            if (en.value > limit)
            {
                throw new IdlException(en.pos, "enumerator '" + en.name + "' value " + en.value
                    + " exceeds @bit_bound(" + e.bitBound + ")");
            }
            final Decls.Enumerator clash = values.put(en.value, en);
            if (clash != null)
            {
                throw new IdlException(en.pos, "enumerator '" + en.name + "' has the same value " + en.value + " as '"
                    + clash.name + "'");
            }
            next = en.value + 1;
        }
    }

    private void resolveBitmask(final Decls.Bitmask b) throws IdlException
    {
        final Map<String, Annotation> a = checkAnnotations(b.annotations, Set.of("bit_bound", "verbatim"),
            "a bitmask");
        if (a.containsKey("bit_bound"))
        {
            b.bitBound = (int)intParam(a.get("bit_bound"), b.scope, 1, 64);
        }
        int next = 0;
        final Set<Integer> used = new HashSet<>();
        final Set<String> names = new HashSet<>();
        for (final Decls.BitFlag f : b.flags)
        {
            if (!names.add(f.name.toLowerCase(Locale.ROOT)))
            {
                throw new IdlException(f.pos, "duplicate bit flag '" + f.name + "'");
            }
            final Map<String, Annotation> fa = checkAnnotations(f.annotations, Set.of("position"), "a bit flag");
            f.position = fa.containsKey("position") ? (int)intParam(fa.get("position"), b.scope, 0, b.bitBound - 1)
                : next;
            if (f.position >= b.bitBound)
            {
                throw new IdlException(f.pos, "bit flag '" + f.name + "' at position " + f.position
                    + " exceeds @bit_bound(" + b.bitBound + ")");
            }
            if (!used.add(f.position))
            {
                throw new IdlException(f.pos, "bit flag '" + f.name + "' reuses position " + f.position);
            }
            next = f.position + 1;
        }
    }

    private void resolveBitset(final Decls.Bitset b) throws IdlException
    {
        checkAnnotations(b.annotations, Set.of("verbatim"), "a bitset");
        int shift = 0;
        final Set<String> names = new HashSet<>();
        for (final Decls.Bitfield f : b.fields)
        {
            f.width = (int)positive(f.widthExpr, b.scope, "bitfield width");
            if (f.type != null)
            {
                resolveType(f.type, b.scope);
                final PrimKind k = Types.prim(f.type);
                if (k == null || !(k.isInteger() || k == PrimKind.BOOLEAN || k == PrimKind.CHAR))
                {
                    throw new IdlException(f.type.pos(), "bitfield type must be boolean, char or an integer type");
                }
                if (k == PrimKind.BOOLEAN && f.width != 1 || f.width > k.size() * 8)
                {
                    throw new IdlException(f.widthExpr.pos(), "bitfield width " + f.width + " does not fit "
                        + k.idlName());
                }
            }
            else if (f.width > 64)
            {
                throw new IdlException(f.widthExpr.pos(), "bitfield width " + f.width + " exceeds 64");
            }
            if (f.name != null && !names.add(f.name.toLowerCase(Locale.ROOT)))
            {
                throw new IdlException(f.pos, "duplicate bitfield '" + f.name + "'");
            }
            f.shift = shift;
            shift += f.width;
        }
        if (shift > 64)
        {
            throw new IdlException(b.pos, "bitset '" + b.name + "' has " + shift + " bits, more than 64");
        }
        b.totalBits = shift;
    }

    private void resolveConst(final Decls.Const c) throws IdlException
    {
        checkAnnotations(c.annotations, Set.of("verbatim"), "a constant");
        resolveType(c.type, c.scope);
        final TypeRef t = Types.unalias(c.type);
        if (!(t instanceof TypeRef.Prim || t instanceof TypeRef.Str
            || t instanceof TypeRef.Named n && n.target instanceof Decls.Enum))
        {
            throw new IdlException(c.type.pos(), "a constant must have a primitive, string or enum type");
        }
        c.value = coerce(evaluate(c.expr, c.scope), c.type, c.expr.pos(), "constant '" + c.name + "'");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Constant expressions

    private Object evaluate(final Expr e, final String scope) throws IdlException
    {
        switch (e)
        {
            case Expr.Literal l ->
            {
                return l.value();
            }
            case Expr.Name n ->
            {
                final Decl d = lookup(n.name(), scope, n.pos());
                if (d instanceof Decls.Const c)
                {
                    if (c.value == null)
                    {
                        throw new IdlException(n.pos(), "constant '" + n.name() + "' is used before its value is known");
                    }
                    return c.value;
                }
                if (d instanceof Decls.EnumValue v)
                {
                    return v;
                }
                throw new IdlException(n.pos(), "'" + n.name() + "' is a " + d.kind() + ", not a constant");
            }
            case Expr.Unary u ->
            {
                final Object v = evaluate(u.operand(), scope);
                if (v instanceof BigInteger b)
                {
                    return switch (u.op())
                    {
                        case "-" -> b.negate();
                        case "~" -> b.not();
                        default -> b;
                    };
                }
                if (v instanceof Double d && !u.op().equals("~"))
                {
                    return u.op().equals("-") ? -d : d;
                }
                throw new IdlException(u.pos(), "operator '" + u.op() + "' needs a number");
            }
            case Expr.Binary b ->
            {
                final Object l = evaluate(b.left(), scope);
                final Object r = evaluate(b.right(), scope);
                if (l instanceof BigInteger x && r instanceof BigInteger y)
                {
                    return switch (b.op())
                    {
                        case "|" -> x.or(y);
                        case "^" -> x.xor(y);
                        case "&" -> x.and(y);
                        case "<<", ">>" ->
                        {
                            if (y.signum() < 0 || y.compareTo(BigInteger.valueOf(64)) >= 0)
                            {
                                throw new IdlException(b.pos(), "shift count " + y + " is out of range (0..63)");
                            }
                            yield b.op().equals("<<") ? x.shiftLeft(y.intValue()) : x.shiftRight(y.intValue());
                        }
                        case "+" -> x.add(y);
                        case "-" -> x.subtract(y);
                        case "*" -> x.multiply(y);
                        default ->
                        {
                            if (y.signum() == 0)
                            {
                                throw new IdlException(b.pos(), "division by zero in constant expression");
                            }
                            yield b.op().equals("/") ? x.divide(y) : x.remainder(y);
                        }
                    };
                }
                if (l instanceof Number x && r instanceof Number y && (l instanceof Double || r instanceof Double))
                {
                    final double p = x.doubleValue();
                    final double q = y.doubleValue();
                    return switch (b.op())
                    {
                        case "+" -> p + q;
                        case "-" -> p - q;
                        case "*" -> p * q;
                        case "/" -> p / q;
                        default -> throw new IdlException(b.pos(), "operator '" + b.op()
                            + "' needs integer operands");
                    };
                }
                if (l instanceof String x && r instanceof String y && b.op().equals("+"))
                {
                    return x + y;
                }
                throw new IdlException(b.pos(), "operator '" + b.op() + "' cannot combine these operands");
            }
        }
    }

    static BigInteger[] range(final PrimKind k)
    {
        return switch (k)
        {
            case INT8 -> new BigInteger[] {BigInteger.valueOf(-128), BigInteger.valueOf(127)};
            case UINT8, OCTET -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(255)};
            case INT16 -> new BigInteger[] {BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE)};
            case UINT16 -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(65535)};
            case INT32 -> new BigInteger[] {BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE)};
            case UINT32 -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(0xffffffffL)};
            case INT64 -> new BigInteger[] {BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)};
            default -> new BigInteger[] {BigInteger.ZERO, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)};
        };
    }

    /** Converts a constant value to the given type, with range checks (IDL 4.2 §7.4.1.4.3.1). */
    private static Object coerce(final Object v, final TypeRef type, final SourcePos pos, final String what)
        throws IdlException
    {
        final TypeRef t = Types.unalias(type);
        if (t instanceof TypeRef.Prim p)
        {
            final PrimKind k = p.kind();
            if (k.isInteger())
            {
                if (!(v instanceof BigInteger b))
                {
                    throw new IdlException(pos, what + " must be an integer for type " + k.idlName());
                }
                final BigInteger[] r = range(k);
                if (b.compareTo(r[0]) < 0 || b.compareTo(r[1]) > 0)
                {
                    throw new IdlException(pos, what + " value " + b + " is out of range for " + k.idlName() + " ("
                        + r[0] + ".." + r[1] + ")");
                }
                return b;
            }
            if (k.isFloat())
            {
                if (!(v instanceof Number n))
                {
                    throw new IdlException(pos, what + " must be a number for type " + k.idlName());
                }
                final double d = n.doubleValue();
                if (k == PrimKind.FLOAT32 && Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE)
                {
                    throw new IdlException(pos, what + " value " + d + " is out of range for float");
                }
                return d;
            }
            if (k == PrimKind.BOOLEAN)
            {
                if (!(v instanceof Boolean))
                {
                    throw new IdlException(pos, what + " must be TRUE or FALSE");
                }
                return v;
            }
            if (!(v instanceof Character c))
            {
                throw new IdlException(pos, what + " must be a character literal");
            }
            if (k == PrimKind.CHAR && c > 0xff)
            {
                throw new IdlException(pos, what + " character is out of range for char");
            }
            return c;
        }
        if (t instanceof TypeRef.Str s)
        {
            if (!(v instanceof String str))
            {
                throw new IdlException(pos, what + " must be a string literal");
            }
            if (s.bound > 0 && str.length() > s.bound)
            {
                throw new IdlException(pos, what + " string of " + str.length() + " characters exceeds bound "
                    + s.bound);
            }
            return str;
        }
        if (t instanceof TypeRef.Named n && n.target instanceof Decls.Enum e)
        {
            if (!(v instanceof Decls.EnumValue ev) || ev.owner != e)
            {
                throw new IdlException(pos, what + " must be an enumerator of " + e.name);
            }
            return v;
        }
        throw new IdlException(pos, what + " cannot have a value of this type");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Keys and recursion

    private void applyKeylist(final Decls.Keylist keylist) throws IdlException
    {
        final Decl d = lookup(keylist.typeName(), keylist.scope(), keylist.pos());
        if (!(d instanceof Decls.Struct s) || !s.defined)
        {
            throw new IdlException(keylist.pos(), "#pragma keylist names '" + keylist.typeName()
                + "', which is not a defined struct");
        }
        for (int i = 0; i < keylist.members().size(); i++)
        {
            final String name = keylist.members().get(i);
            final SourcePos at = keylist.memberPositions().get(i);
            Decls.Member found = null;
            for (final Decls.Member m : s.allMembers())
            {
                if (m.name.equals(name))
                {
                    found = m;
                }
            }
            if (found == null)
            {
                throw new IdlException(at, "#pragma keylist: struct '" + s.name + "' has no member '"
                    + name + "'");
            }
            if (found.optional)
            {
                throw new IdlException(at, "#pragma keylist: key member '" + name + "' cannot be @optional");
            }
            found.key = true;
        }
    }

    private void checkKeys(final Decls.Struct s) throws IdlException
    {
        for (final Decls.Member m : s.members)
        {
            if (m.key)
            {
                final String why = notKeyable(m.type, new HashSet<>());
                if (why != null)
                {
                    throw new IdlException(m.pos, "member '" + m.name + "' cannot be a key: " + why);
                }
            }
        }
    }

    /** Why a type cannot be (part of) a key, or null when it can. Sequences and unions cannot. */
    private static String notKeyable(final TypeRef type, final Set<Decl> visiting)
    {
        final TypeRef t = Types.unalias(type);
        switch (t)
        {
            case TypeRef.Seq s ->
            {
                return "sequences cannot be keys";
            }
            case TypeRef.Arr a ->
            {
                return notKeyable(a.element, visiting);
            }
            case TypeRef.Named n ->
            {
                if (n.target instanceof Decls.Union)
                {
                    return "unions cannot be keys";
                }
                if (n.target instanceof Decls.Struct s)
                {
                    if (!visiting.add(s))
                    {
                        return "recursive types cannot be keys";
                    }
                    final boolean keyed = s.hasKeys();
                    for (final Decls.Member m : s.allMembers())
                    {
                        if (!keyed || m.key)
                        {
                            if (m.optional)
                            {
                                return "nested member '" + s.name + "." + m.name + "' is @optional";
                            }
                            final String why = notKeyable(m.type, visiting);
                            if (why != null)
                            {
                                return "nested member '" + s.name + "." + m.name + "': " + why;
                            }
                        }
                    }
                    visiting.remove(s);
                }
                return null;
            }
            default ->
            {
                return null;
            }
        }
    }

    private void checkRecursion() throws IdlException
    {
        final Set<Decl> done = new HashSet<>();
        for (final Decl d : types)
        {
            if (d instanceof Decls.Struct || d instanceof Decls.Union)
            {
                visit(d, new ArrayList<>(), new ArrayList<>(), done);
            }
        }
    }

    private void visit(final Decl d, final List<Decl> path, final List<Decls.Member> via, final Set<Decl> done)
        throws IdlException
    {
        if (done.contains(d))
        {
            return;
        }
        final int at = path.indexOf(d);
        if (at >= 0)
        {
            final StringBuilder chain = new StringBuilder();
            for (int i = at; i < path.size(); i++)
            {
                chain.append(path.get(i).name).append('.').append(via.get(i).name).append(" -> ");
            }
            chain.append(d.name);
            final Decls.Member closing = via.get(at);
            throw new IdlException(closing.pos, "recursive type '" + d.name + "' contains itself without a "
                + "sequence: " + chain);
        }
        if (d instanceof Decls.Struct s && !s.defined || d instanceof Decls.Union u && !u.defined)
        {
            throw new IdlException(via.isEmpty() ? d.pos : via.getLast().pos, d.kind() + " '" + d.name
                + "' is forward-declared but never defined");
        }
        path.add(d);
        final List<Decls.Member> members = new ArrayList<>();
        if (d instanceof Decls.Struct s)
        {
            members.addAll(s.allMembers());
        }
        else if (d instanceof Decls.Union u)
        {
            for (final Decls.UnionCase c : u.cases)
            {
                members.add(c.member);
            }
        }
        for (final Decls.Member m : members)
        {
            final Decl next = directTarget(m.type);
            if (next != null)
            {
                via.add(m);
                visit(next, path, via, done);
                via.removeLast();
            }
            else
            {
                for (final Decl seqTarget : sequenceTargets(m.type))
                {
                    if (seqTarget instanceof Decls.Struct s && !s.defined
                        || seqTarget instanceof Decls.Union u && !u.defined)
                    {
                        if (!(symbols.get(seqTarget.scopedName()) instanceof Decls.Struct ds && ds.defined
                            || symbols.get(seqTarget.scopedName()) instanceof Decls.Union du && du.defined))
                        {
                            throw new IdlException(m.pos, seqTarget.kind() + " '" + seqTarget.name
                                + "' is forward-declared but never defined");
                        }
                    }
                }
            }
        }
        path.removeLast();
        done.add(d);
    }

    /** The struct or union a member contains directly (not through a sequence), after typedefs and arrays. */
    private Decl directTarget(final TypeRef type)
    {
        final TypeRef t = Types.arrayElement(type);
        if (t instanceof TypeRef.Named n && (n.target instanceof Decls.Struct || n.target instanceof Decls.Union))
        {
            return canonical(n.target);
        }
        return null;
    }

    private List<Decl> sequenceTargets(final TypeRef type)
    {
        final List<Decl> out = new ArrayList<>();
        TypeRef t = Types.arrayElement(type);
        while (t instanceof TypeRef.Seq s)
        {
            t = Types.arrayElement(s.element);
        }
        if (t instanceof TypeRef.Named n && (n.target instanceof Decls.Struct || n.target instanceof Decls.Union))
        {
            out.add(n.target);
        }
        return out;
    }

    /** A forward declaration's definition, when there is one. */
    private Decl canonical(final Decl d)
    {
        final Decl c = symbols.get(d.scopedName());
        return c != null ? c : d;
    }
}
