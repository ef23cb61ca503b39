package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates Java sources from a resolved model: one class per struct, union, enum, bitmask and bitset, a
 * {@code <Type>TypeSupport} codec per struct and union, a {@code <Type>Flat} view per fixed-size struct (not for a
 * Java 21 target: it is made of {@code java.lang.foreign}), and an interface per constant (the classic IDL-to-Java
 * mapping). The generated code depends only on {@code dds-api}
 * and the JDK.
 */
public final class JavaGenerator
{
    private final GeneratorOptions options;
    private final Naming naming;
    private final CodecWriter codec;
    private final CodecReader reader;
    private final StructClassGen structs;
    private final UnionClassGen unions;
    private final EnumClassGen enums;
    private final BitsetClassGen bitsets;
    private final Map<String, String> files = new LinkedHashMap<>();

    public JavaGenerator(final GeneratorOptions options)
    {
        this.options = options;
        this.naming = new Naming(options);
        this.codec = new CodecWriter(naming);
        this.reader = new CodecReader(naming);
        final ValueExprs values = new ValueExprs(naming); // one for both: it numbers lambda parameters in order
        this.structs = new StructClassGen(naming, values);
        this.unions = new UnionClassGen(naming, values);
        this.enums = new EnumClassGen(naming);
        this.bitsets = new BitsetClassGen(naming);
    }

    /** Generates every definition; returns source text keyed by relative path ({@code a/b/C.java}). */
    public Map<String, String> generate(final List<Decl> types, final List<Decls.Const> constants)
    {
        for (final Decl d : types)
        {
            switch (d)
            {
                case Decls.Struct s ->
                {
                    emit(s, "", structs.structClass(s));
                    emit(s, "TypeSupport", new TypeSupportGen(naming, codec, reader, options).struct(s));
                    if (options.foreign() && FlatGen.eligible(s))
                    {
                        emit(s, "Flat", new FlatGen(naming).generate(s));
                    }
                }
                case Decls.Union u ->
                {
                    emit(u, "", unions.unionClass(u));
                    emit(u, "TypeSupport", new TypeSupportGen(naming, codec, reader, options).union(u));
                }
                case Decls.Enum e -> emit(e, "", enums.enumClass(e));
                case Decls.Bitmask b -> emit(b, "", enums.bitmaskClass(b));
                case Decls.Bitset b -> emit(b, "", bitsets.bitsetClass(b));
                default ->
                {
                    // typedefs are inlined at each use
                }
            }
        }
        for (final Decls.Const c : constants)
        {
            emit(c, "", enums.constClass(c));
        }
        return files;
    }

    private void emit(final Decl d, final String suffix, final String body)
    {
        final String pkg = naming.packageOf(d);
        final String path = (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + naming.className(d) + suffix + ".java";
        files.put(path, (pkg.isEmpty() ? "" : "package " + pkg + ";\n\n") + body);
    }
}
