package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Annotation applications (IDL 4.2 §7.4.15.4.2): {@code @name}, {@code @name(value)} and
 * {@code @name(p1 = v1, p2 = v2)}; names may be scoped. Whether an annotation is known and allowed where it stands
 * is checked later, by {@link AnnotationReader}.
 */
final class AnnotationParser
{
    private final TokenCursor in;
    private final ExprParser expressions;

    AnnotationParser(final TokenCursor in, final ExprParser expressions)
    {
        this.in = in;
        this.expressions = expressions;
    }

    List<Annotation> annotations() throws IdlException
    {
        final List<Annotation> annotations = new ArrayList<>();
        while (in.peek().is("@"))
        {
            final Token at = in.next();
            final String name = annotationName();
            final Map<String, Expr> params = new LinkedHashMap<>();
            if (in.accept("("))
            {
                if (!in.peek().is(")"))
                {
                    parameters(params);
                }
                in.expect(")");
            }
            annotations.add(new Annotation(name, params, at.pos()));
        }
        return annotations;
    }

    private String annotationName() throws IdlException
    {
        final Token name = in.peek();
        if (name.kind() != Token.Kind.IDENT)
        {
            throw TokenCursor.error(name, "expected an annotation name after '@' but found " + name.describe());
        }
        final StringBuilder annotationName = new StringBuilder(in.next().text());
        while (in.peek().is("::") && in.peek(1).kind() == Token.Kind.IDENT)
        {
            in.next();
            annotationName.append("::").append(in.next().text());
        }
        return annotationName.toString();
    }

    /** Named parameters ({@code p = v, ...}) or one unnamed value, stored as {@code value}. */
    private void parameters(final Map<String, Expr> params) throws IdlException
    {
        if (!(in.peek().kind() == Token.Kind.IDENT && in.peek(1).is("=")))
        {
            params.put("value", expressions.expression());
            return;
        }
        do
        {
            final Token p = in.next();
            if (p.kind() != Token.Kind.IDENT)
            {
                throw TokenCursor.error(p, "expected a parameter name but found " + p.describe());
            }
            in.expect("=");
            if (params.put(p.text(), expressions.expression()) != null)
            {
                throw TokenCursor.error(p, "parameter '" + p.text() + "' given twice");
            }
        }
        while (in.accept(","));
    }
}
