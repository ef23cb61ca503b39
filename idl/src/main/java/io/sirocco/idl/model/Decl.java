package io.sirocco.idl.model;

import java.util.ArrayList;
import java.util.List;

/** A named definition in a scope. {@code scope} is the "::"-joined enclosing module path, "" at global scope. */
public abstract class Decl
{
    public final String name;
    public final SourcePos pos;
    public final String scope;
    public final List<Annotation> annotations = new ArrayList<>();

    protected Decl(final String name, final SourcePos pos, final String scope)
    {
        this.name = name;
        this.pos = pos;
        this.scope = scope;
    }

    public String scopedName()
    {
        return scope.isEmpty() ? name : scope + "::" + name;
    }

    public abstract String kind();
}
