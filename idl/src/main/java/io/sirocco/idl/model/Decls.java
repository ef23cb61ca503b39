package io.sirocco.idl.model;

import java.util.ArrayList;
import java.util.List;

/** The kinds of definition. Fields are filled by the parser and completed by the resolver. */
public final class Decls
{
    private Decls()
    {
    }

    public static final class Module extends Decl
    {
        public final List<Decl> definitions = new ArrayList<>();

        public Module(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "module";
        }
    }

    public enum Extensibility
    {
        FINAL, APPENDABLE, MUTABLE
    }

    public static final class Member
    {
        public final String name;
        public final SourcePos pos;
        public TypeRef type;
        public final List<Annotation> annotations = new ArrayList<>();
        public boolean key;
        public boolean optional;
        public int id = -1;
        public Object defaultValue;
        public Object rangeMin;
        public Object rangeMax;

        public Member(final String name, final SourcePos pos)
        {
            this.name = name;
            this.pos = pos;
        }
    }

    public static final class Struct extends Decl
    {
        public TypeRef.Named baseRef;
        public Struct base;
        public final List<Member> members = new ArrayList<>();
        public Extensibility extensibility = Extensibility.FINAL;
        public boolean defined;
        public boolean topic;
        public boolean nested;
        public boolean hashIds;

        public Struct(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        /** Base members first, then this struct's own. */
        public List<Member> allMembers()
        {
            final List<Member> all = new ArrayList<>();
            if (base != null)
            {
                all.addAll(base.allMembers());
            }
            all.addAll(members);
            return all;
        }

        public boolean hasKeys()
        {
            for (final Member m : allMembers())
            {
                if (m.key)
                {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String kind()
        {
            return "struct";
        }
    }

    public static final class UnionCase
    {
        public final List<Expr> labels = new ArrayList<>();
        public final List<Object> labelValues = new ArrayList<>();
        public boolean isDefault;
        public Member member;
    }

    public static final class Union extends Decl
    {
        public TypeRef discriminator;
        public final List<UnionCase> cases = new ArrayList<>();
        public Extensibility extensibility = Extensibility.FINAL;
        public boolean defined;
        public boolean discriminatorKey;
        /** A discriminator value selecting no explicit label: the implicit or explicit default. */
        public Object defaultDiscriminator;

        public Union(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "union";
        }
    }

    public static final class Enumerator
    {
        public final String name;
        public final SourcePos pos;
        public final List<Annotation> annotations = new ArrayList<>();
        public int value;

        public Enumerator(final String name, final SourcePos pos)
        {
            this.name = name;
            this.pos = pos;
        }
    }

    public static final class Enum extends Decl
    {
        public final List<Enumerator> enumerators = new ArrayList<>();
        public int bitBound = 32;

        public Enum(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "enum";
        }
    }

    /** An enumerator as a scope entry, so that constants and case labels can name it. */
    public static final class EnumValue extends Decl
    {
        public final Enum owner;
        public final Enumerator enumerator;

        public EnumValue(final Enum owner, final Enumerator enumerator)
        {
            super(enumerator.name, enumerator.pos, owner.scope);
            this.owner = owner;
            this.enumerator = enumerator;
        }

        @Override
        public String kind()
        {
            return "enumerator";
        }
    }

    public static final class Typedef extends Decl
    {
        public TypeRef type;

        public Typedef(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "typedef";
        }
    }

    public static final class Const extends Decl
    {
        public TypeRef type;
        public Expr expr;
        public Object value;

        public Const(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "const";
        }
    }

    public static final class BitFlag
    {
        public final String name;
        public final SourcePos pos;
        public final List<Annotation> annotations = new ArrayList<>();
        public int position;

        public BitFlag(final String name, final SourcePos pos)
        {
            this.name = name;
            this.pos = pos;
        }
    }

    public static final class Bitmask extends Decl
    {
        public final List<BitFlag> flags = new ArrayList<>();
        public int bitBound = 32;

        public Bitmask(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "bitmask";
        }
    }

    public static final class Bitfield
    {
        public final String name;
        public final SourcePos pos;
        public final Expr widthExpr;
        public final TypeRef type;
        public int width;
        public int shift;

        public Bitfield(final String name, final SourcePos pos, final Expr widthExpr, final TypeRef type)
        {
            this.name = name;
            this.pos = pos;
            this.widthExpr = widthExpr;
            this.type = type;
        }
    }

    public static final class Bitset extends Decl
    {
        public final List<Bitfield> fields = new ArrayList<>();
        public int totalBits;

        public Bitset(final String name, final SourcePos pos, final String scope)
        {
            super(name, pos, scope);
        }

        @Override
        public String kind()
        {
            return "bitset";
        }
    }

    /** {@code #pragma keylist Type member...}, applied after parsing. */
    public record Keylist(String typeName, List<String> members, List<SourcePos> memberPositions, String scope,
        SourcePos pos)
    {
    }
}
