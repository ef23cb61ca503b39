package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Semantic analysis: builds the scope table, resolves scoped names (IDL 4.2 §7.5), evaluates constants with range
 * checks, applies and checks annotations (XTypes 1.3 §7.3.1), assigns member ids, applies {@code #pragma keylist},
 * checks keys and rejects recursion that does not go through a sequence. Every error names the exact position.
 *
 * <p>This class runs the steps in order and resolves enums, bitmasks, bitsets and constants itself; the
 * {@link SymbolTable}, {@link ConstEvaluator}, {@link AnnotationReader}, {@link TypeResolver},
 * {@link StructResolver}, {@link UnionResolver}, {@link KeyChecks} and {@link RecursionCheck} do the rest.
 */
public final class Resolver
{
    private final SymbolTable symbols = new SymbolTable();
    private final Set<Diagnostic> errors = new LinkedHashSet<>();
    /** Set when a definition failed in a way that follows from an earlier error: resolve nothing further. */
    private boolean abandoned;
    private final ConstEvaluator evaluator = new ConstEvaluator(symbols);
    private final AnnotationReader annotations = new AnnotationReader(evaluator);
    private final TypeResolver types = new TypeResolver(symbols, evaluator);
    private final StructResolver structs = new StructResolver(types, evaluator, annotations);
    private final UnionResolver unions = new UnionResolver(types, evaluator, annotations);

    public Map<String, Decl> symbols()
    {
        return symbols.symbols();
    }

    /** Every struct, union, enum, bitmask, bitset and typedef in declaration order (for code generation). */
    public List<Decl> types()
    {
        return symbols.types();
    }

    public Resolver resolve(final List<Decl> topLevel, final List<Decls.Keylist> keylists) throws IdlException
    {
        symbols.declare(topLevel);
        resolveAll(topLevel);
        if (!errors.isEmpty())
        {
            throw new IdlException(List.copyOf(errors));
        }
        final KeyChecks keys = new KeyChecks(symbols);
        for (final Decls.Keylist keylist : keylists)
        {
            keys.applyKeylist(keylist);
        }
        for (final Decl d : symbols.types())
        {
            if (d instanceof Decls.Struct s)
            {
                keys.checkKeys(s);
            }
        }
        new RecursionCheck(symbols).checkRecursion();
        return this;
    }

    // Resolution, in declaration order so that constants may use earlier constants

    /**
     * Resolves each definition on its own, recording its first error and going on with the next, so that one run
     * reports an error per broken definition. Once a definition has failed, a later one that depends on it may find
     * it half-resolved: an unexpected exception after an error is such a consequence, and ends the resolution with
     * the errors recorded so far.
     */
    private void resolveAll(final List<Decl> decls)
    {
        for (final Decl d : decls)
        {
            if (abandoned)
            {
                return;
            }
            if (d instanceof Decls.Module m)
            {
                resolveAll(m.definitions);
                continue;
            }
            try
            {
                resolveOne(d);
            }
            catch (final IdlException ex)
            {
                errors.addAll(ex.diagnostics());
            }
            catch (final RuntimeException ex)
            {
                if (errors.isEmpty())
                {
                    throw ex;
                }
                abandoned = true;
            }
        }
    }

    private void resolveOne(final Decl d) throws IdlException
    {
        switch (d)
        {
            case Decls.Struct s -> structs.resolveStruct(s);
            case Decls.Union u -> unions.resolveUnion(u);
            case Decls.Enum e -> resolveEnum(e);
            case Decls.Typedef t ->
            {
                annotations.check(t.annotations, Set.of("verbatim"), "a typedef");
                types.resolveType(t.type, t.scope);
            }
            case Decls.Const c -> resolveConst(c);
            case Decls.Bitmask b -> resolveBitmask(b);
            case Decls.Bitset b -> resolveBitset(b);
            default -> throw new IdlException(d.pos, "unexpected definition");
        }
    }

    private void resolveEnum(final Decls.Enum e) throws IdlException
    {
        final Map<String, Annotation> a = annotations.check(e.annotations, Set.of("bit_bound", "final", "appendable",
            "extensibility", "nested", "verbatim"), "an enum");
        if (a.containsKey("bit_bound"))
        {
            e.bitBound = (int)annotations.intParam(a.get("bit_bound"), e.scope, 1, 32);
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
            final Map<String, Annotation> ea = annotations.check(en.annotations, Set.of("value", "default_literal"),
                "an enumerator");
            final long limit = e.bitBound == 32 ? Integer.MAX_VALUE : (1L << e.bitBound) - 1;
            en.value = ea.containsKey("value")
                ? (int)annotations.intParam(ea.get("value"), e.scope, e.bitBound == 32 ? Integer.MIN_VALUE : 0, limit)
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
        final Map<String, Annotation> a = annotations.check(b.annotations, Set.of("bit_bound", "verbatim"),
            "a bitmask");
        if (a.containsKey("bit_bound"))
        {
            b.bitBound = (int)annotations.intParam(a.get("bit_bound"), b.scope, 1, 64);
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
            final Map<String, Annotation> fa = annotations.check(f.annotations, Set.of("position"), "a bit flag");
            f.position = fa.containsKey("position")
                ? (int)annotations.intParam(fa.get("position"), b.scope, 0, b.bitBound - 1) : next;
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
        annotations.check(b.annotations, Set.of("verbatim"), "a bitset");
        int shift = 0;
        final Set<String> names = new HashSet<>();
        for (final Decls.Bitfield f : b.fields)
        {
            f.width = (int)types.positive(f.widthExpr, b.scope, "bitfield width");
            if (f.type != null)
            {
                types.resolveType(f.type, b.scope);
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
        annotations.check(c.annotations, Set.of("verbatim"), "a constant");
        types.resolveType(c.type, c.scope);
        final TypeRef t = Types.unalias(c.type);
        if (!(t instanceof TypeRef.Prim || t instanceof TypeRef.Str
            || t instanceof TypeRef.Named n && n.target instanceof Decls.Enum))
        {
            throw new IdlException(c.type.pos(), "a constant must have a primitive, string or enum type");
        }
        c.value = ConstEvaluator.coerce(evaluator.evaluate(c.expr, c.scope), c.type, c.expr.pos(),
            "constant '" + c.name + "'");
    }

}
