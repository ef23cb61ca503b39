package io.sirocco.idl.parse;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scope table of one compilation: every declared name by its scoped name (IDL 4.2 §7.5), the types in
 * declaration order, and scoped-name lookup from a scope outwards. Filled once by {@link #declare}, then read.
 * Confined to the compiling thread.
 */
final class SymbolTable
{
    private final Map<String, Decl> symbols = new LinkedHashMap<>();
    private final List<Decl> types = new ArrayList<>();

    Map<String, Decl> symbols()
    {
        return symbols;
    }

    /** Every struct, union, enum, bitmask, bitset and typedef in declaration order. */
    List<Decl> types()
    {
        return types;
    }

    /** The declaration of a fully scoped name, or null. */
    Decl get(final String scopedName)
    {
        return symbols.get(scopedName);
    }

    /** Enters every declaration (and every enumerator) into the table; rejects duplicate names. */
    void declare(final List<Decl> decls) throws IdlException
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

    Decl lookup(final String name, final String scope, final SourcePos pos) throws IdlException
    {
        return lookup(name, scope, pos, "name");
    }

    Decl lookup(final String name, final String scope, final SourcePos pos, final String what)
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
}
