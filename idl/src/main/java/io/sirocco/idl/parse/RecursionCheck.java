package io.sirocco.idl.parse;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rejects a struct or union that contains itself other than through a sequence, and a forward declaration that
 * is used but never defined; the error shows the chain of members. Confined to the compiling thread.
 */
final class RecursionCheck
{
    private final SymbolTable symbols;

    RecursionCheck(final SymbolTable symbols)
    {
        this.symbols = symbols;
    }

    void checkRecursion() throws IdlException
    {
        final Set<Decl> done = new HashSet<>();
        for (final Decl d : symbols.types())
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
            throw cycle(d, path, via, at);
        }
        if (d instanceof Decls.Struct s && !s.defined || d instanceof Decls.Union u && !u.defined)
        {
            throw new IdlException(via.isEmpty() ? d.pos : via.getLast().pos, d.kind() + " '" + d.name
                + "' is forward-declared but never defined");
        }
        path.add(d);
        for (final Decls.Member m : members(d))
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
                checkSequenceTargets(m);
            }
        }
        path.removeLast();
        done.add(d);
    }

    private static IdlException cycle(final Decl d, final List<Decl> path, final List<Decls.Member> via,
        final int at)
    {
        final StringBuilder chain = new StringBuilder();
        for (int i = at; i < path.size(); i++)
        {
            chain.append(path.get(i).name).append('.').append(via.get(i).name).append(" -> ");
        }
        chain.append(d.name);
        final Decls.Member closing = via.get(at);
        return new IdlException(closing.pos, "recursive type '" + d.name + "' contains itself without a "
            + "sequence: " + chain);
    }

    private static List<Decls.Member> members(final Decl d)
    {
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
        return members;
    }

    /** A member holding a sequence of a forward-declared type needs that type defined somewhere. */
    private void checkSequenceTargets(final Decls.Member m) throws IdlException
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
