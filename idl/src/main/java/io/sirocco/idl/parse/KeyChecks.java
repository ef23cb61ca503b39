package io.sirocco.idl.parse;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.HashSet;
import java.util.Set;

/**
 * Keys: applies {@code #pragma keylist} to its struct, and checks that every key member has a type that can be a
 * key (no sequence, no union, no recursion, no optional nested member). Confined to the compiling thread.
 */
final class KeyChecks
{
    private final SymbolTable symbols;

    KeyChecks(final SymbolTable symbols)
    {
        this.symbols = symbols;
    }

    void applyKeylist(final Decls.Keylist keylist) throws IdlException
    {
        final Decl d = symbols.lookup(keylist.typeName(), keylist.scope(), keylist.pos());
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

    void checkKeys(final Decls.Struct s) throws IdlException
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
}
