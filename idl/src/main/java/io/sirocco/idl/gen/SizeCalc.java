package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Serialized-size arithmetic at generation time: the exact size of types without variable-length parts, an upper
 * bound for bounded types, and the key holder's maximum size that decides the KeyHash form (XTypes 1.3 §7.6.8).
 * Simulates the writer: position from the origin, alignment capped by the XCDR version, and once a variable-length
 * part has been passed the worst-case padding before every aligned item.
 */
final class SizeCalc
{
    static final long UNBOUNDED = -1;

    private final int maxAlign;
    private final boolean keyHolder;
    private long pos;
    private boolean exact = true;
    private boolean unbounded;
    private final Set<Decl> visiting = new HashSet<>();

    private SizeCalc(final int version, final boolean keyHolder)
    {
        this.maxAlign = version == 1 ? 8 : 4;
        this.keyHolder = keyHolder;
    }

    /** The exact body size when it does not depend on the sample, else -1. */
    static long constantBodySize(final Decl d, final int version)
    {
        final SizeCalc c = new SizeCalc(version, false);
        c.decl(d);
        return c.exact && !c.unbounded ? c.pos : UNBOUNDED;
    }

    /** An upper bound on the body size for any sample, or -1 when unbounded. */
    static long maxBodySize(final Decl d, final int version)
    {
        final SizeCalc c = new SizeCalc(version, false);
        c.decl(d);
        return c.unbounded ? UNBOUNDED : c.pos;
    }

    /** The key holder's maximum size (PLAIN_CDR2, no headers), or -1 when unbounded. */
    static long maxKeyHolderSize(final Decls.Struct s)
    {
        final SizeCalc c = new SizeCalc(2, true);
        c.keyMembers(s);
        return c.unbounded ? UNBOUNDED : c.pos;
    }

    /** Key members in member-id order, or all members when the struct has no key (XTypes 1.3 §7.6.8). */
    static List<Decls.Member> keyHolderMembers(final Decls.Struct s)
    {
        final boolean keyed = s.hasKeys();
        final List<Decls.Member> out = new ArrayList<>();
        for (final Decls.Member m : s.allMembers())
        {
            if (!keyed || m.key)
            {
                out.add(m);
            }
        }
        out.sort(Comparator.comparingInt(m -> m.id));
        return out;
    }

    private void align(final int size)
    {
        final int a = Math.min(size, maxAlign);
        if (a <= 1)
        {
            return;
        }
        if (exact)
        {
            pos = (pos + a - 1) & -a;
        }
        else
        {
            pos += a - 1;
        }
    }

    private void prim(final int size)
    {
        align(size);
        pos += size;
    }

    private void variable()
    {
        exact = false;
    }

    private void keyMembers(final Decls.Struct s)
    {
        if (!visiting.add(s))
        {
            unbounded = true;
            return;
        }
        for (final Decls.Member m : keyHolderMembers(s))
        {
            type(m.type);
        }
        visiting.remove(s);
    }

    private void decl(final Decl d)
    {
        if (!visiting.add(d))
        {
            unbounded = true;
            variable();
            return;
        }
        if (d instanceof Decls.Struct s)
        {
            struct(s);
        }
        else if (d instanceof Decls.Union u)
        {
            union(u);
        }
        visiting.remove(d);
    }

    private void struct(final Decls.Struct s)
    {
        if (s.extensibility != Decls.Extensibility.FINAL && (maxAlign == 4 || s.extensibility == Decls.Extensibility.MUTABLE))
        {
            if (maxAlign == 4)
            {
                prim(4);
            }
        }
        for (final Decls.Member m : s.allMembers())
        {
            if (s.extensibility == Decls.Extensibility.MUTABLE)
            {
                mutableMember(m);
            }
            else if (m.optional)
            {
                variable();
                if (maxAlign == 4)
                {
                    prim(1);
                }
                else
                {
                    prim(4);
                    if (m.id >= 0x3f00)
                    {
                        pos += 8;
                    }
                }
                type(m.type);
            }
            else
            {
                type(m.type);
            }
        }
        if (s.extensibility == Decls.Extensibility.MUTABLE && maxAlign == 8)
        {
            prim(4);
        }
    }

    /** One member of a mutable struct: its EMHEADER1, a NEXTINT when the length code needs one, then the value. */
    private void mutableMember(final Decls.Member m)
    {
        if (m.optional)
        {
            variable();
        }
        prim(4);
        if (maxAlign == 8)
        {
            if (m.id >= 0x3f00)
            {
                pos += 8;
            }
            type(m.type);
        }
        else
        {
            final int lcSize = primSize(m.type);
            if (lcSize == 0)
            {
                pos += 4;
            }
            type(m.type);
        }
    }

    /** The LC-sized primitive size (1, 2, 4, 8) of a member type, or 0 when it needs a NEXTINT. */
    static int primSize(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        if (t instanceof TypeRef.Prim p)
        {
            return p.kind().size();
        }
        if (t instanceof TypeRef.Named n)
        {
            return switch (n.target)
            {
                case Decls.Enum e -> enumSize(e.bitBound);
                case Decls.Bitmask b -> bitsSize(b.bitBound);
                case Decls.Bitset b -> bitsSize(b.totalBits);
                default -> 0;
            };
        }
        return 0;
    }

    static int enumSize(final int bitBound)
    {
        return bitBound <= 8 ? 1 : bitBound <= 16 ? 2 : 4;
    }

    static int bitsSize(final int bits)
    {
        return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
    }

    private void union(final Decls.Union u)
    {
        if (u.extensibility == Decls.Extensibility.APPENDABLE && maxAlign == 4)
        {
            prim(4);
        }
        prim(primSize(u.discriminator));
        variable();
        final long start = pos;
        final boolean wasExact = exact;
        long max = start;
        for (final Decls.UnionCase c : u.cases)
        {
            pos = start;
            exact = wasExact;
            type(c.member.type);
            max = Math.max(max, pos);
        }
        pos = max;
        exact = false;
    }

    private void type(final TypeRef type)
    {
        if (unbounded)
        {
            return;
        }
        final TypeRef t = Types.unalias(type);
        switch (t)
        {
            case TypeRef.Prim p -> prim(p.kind().size());
            case TypeRef.Str s -> string(s);
            case TypeRef.Seq s -> sequence(s);
            case TypeRef.Arr a -> array(t);
            case TypeRef.Named n -> named(n, t);
        }
    }

    private void string(final TypeRef.Str s)
    {
        prim(4);
        variable();
        if (s.bound == 0)
        {
            unbounded = true;
        }
        else
        {
            pos += s.wide ? 2 * s.bound : s.bound + 1;
        }
    }

    private void sequence(final TypeRef.Seq s)
    {
        if (!Types.isPrimitiveLike(s.element) && maxAlign == 4)
        {
            prim(4);
        }
        prim(4);
        variable();
        if (s.bound == 0)
        {
            unbounded = true;
        }
        else
        {
            repeat(s.element, s.bound);
        }
    }

    private void array(final TypeRef t)
    {
        final TypeRef element = Types.arrayElement(t);
        long count = 1;
        for (final int d : Types.dims(t))
        {
            count *= d;
        }
        if (!Types.isPrimitiveLike(element) && maxAlign == 4)
        {
            prim(4);
        }
        final int ps = primSize(element);
        if (ps > 0 && Types.isPrimitiveLike(element))
        {
            align(ps);
            pos += ps * count;
        }
        else
        {
            repeat(element, count);
        }
    }

    /** Adds {@code count} elements one by one; a size beyond 2^40 bytes counts as unbounded. */
    private void repeat(final TypeRef element, final long count)
    {
        for (long i = 0; i < count && !unbounded; i++)
        {
            type(element);
            if (pos > (1L << 40))
            {
                unbounded = true;
            }
        }
    }

    private void named(final TypeRef.Named n, final TypeRef t)
    {
        switch (n.target)
        {
            case Decls.Struct s ->
            {
                if (keyHolder)
                {
                    keyMembers(s);
                }
                else
                {
                    decl(s);
                }
            }
            case Decls.Union u -> decl(u);
            default -> prim(primSize(t));
        }
    }
}
