package io.sirocco.idl.model;

import java.util.List;

/** A use of a type in a member, typedef, sequence or constant. Named references are resolved in place. */
public sealed interface TypeRef permits TypeRef.Prim, TypeRef.Str, TypeRef.Seq, TypeRef.Arr, TypeRef.Named
{
    SourcePos pos();

    record Prim(PrimKind kind, SourcePos pos) implements TypeRef
    {
    }

    /** {@code string}/{@code wstring}; {@code bound} 0 when unbounded, set from {@code boundExpr} on resolution. */
    final class Str implements TypeRef
    {
        public final boolean wide;
        public final Expr boundExpr;
        public final SourcePos pos;
        public long bound;

        public Str(final boolean wide, final Expr boundExpr, final SourcePos pos)
        {
            this.wide = wide;
            this.boundExpr = boundExpr;
            this.pos = pos;
        }

        @Override
        public SourcePos pos()
        {
            return pos;
        }
    }

    final class Seq implements TypeRef
    {
        public final TypeRef element;
        public final Expr boundExpr;
        public final SourcePos pos;
        public long bound;

        public Seq(final TypeRef element, final Expr boundExpr, final SourcePos pos)
        {
            this.element = element;
            this.boundExpr = boundExpr;
            this.pos = pos;
        }

        @Override
        public SourcePos pos()
        {
            return pos;
        }
    }

    /** An array from a declarator like {@code x[2][3]}; a typedef'd array type nests another {@code Arr}. */
    final class Arr implements TypeRef
    {
        public final TypeRef element;
        public final List<Expr> dimExprs;
        public final SourcePos pos;
        public int[] dims;

        public Arr(final TypeRef element, final List<Expr> dimExprs, final SourcePos pos)
        {
            this.element = element;
            this.dimExprs = dimExprs;
            this.pos = pos;
        }

        @Override
        public SourcePos pos()
        {
            return pos;
        }
    }

    /** A scoped name, resolved to its declaration by the resolver. */
    final class Named implements TypeRef
    {
        public final String name;
        public final SourcePos pos;
        public Decl target;

        public Named(final String name, final SourcePos pos)
        {
            this.name = name;
            this.pos = pos;
        }

        @Override
        public SourcePos pos()
        {
            return pos;
        }
    }
}
