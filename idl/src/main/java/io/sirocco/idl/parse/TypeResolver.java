package io.sirocco.idl.parse;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.TypeRef;

import java.math.BigInteger;

/**
 * Resolves type references: binds each scoped type name to its declaration and evaluates string and sequence
 * bounds and array dimensions (positive integer constants). Confined to the compiling thread.
 */
final class TypeResolver
{
    private final SymbolTable symbols;
    private final ConstEvaluator evaluator;

    TypeResolver(final SymbolTable symbols, final ConstEvaluator evaluator)
    {
        this.symbols = symbols;
        this.evaluator = evaluator;
    }

    void resolveType(final TypeRef type, final String scope) throws IdlException
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
                final Decl d = symbols.lookup(n.name, scope, n.pos, "type");
                if (d instanceof Decls.Module || d instanceof Decls.Const || d instanceof Decls.EnumValue)
                {
                    throw new IdlException(n.pos, "'" + n.name + "' is a " + d.kind() + ", not a type");
                }
                n.target = d;
            }
        }
    }

    long positive(final Expr e, final String scope, final String what) throws IdlException
    {
        final Object v = evaluator.evaluate(e, scope);
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
}
