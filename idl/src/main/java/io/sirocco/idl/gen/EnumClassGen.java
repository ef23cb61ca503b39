package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;

/**
 * Generates the Java classes of the simple IDL types: an enum (with its IDL values), a bitmask (a holder of flag
 * constants) and a constant (an interface holding the value, the classic IDL-to-Java mapping).
 */
final class EnumClassGen
{
    private final Naming naming;

    EnumClassGen(final Naming naming)
    {
        this.naming = naming;
    }

    String enumClass(final Decls.Enum e)
    {
        final Src src = new Src();
        final String cls = naming.className(e);
        src.line(GeneratedHeader.header(e).strip());
        src.line("public enum " + cls);
        src.open();
        for (int i = 0; i < e.enumerators.size(); i++)
        {
            final Decls.Enumerator en = e.enumerators.get(i);
            src.line(Naming.id(en.name) + "(" + en.value + ")" + (i == e.enumerators.size() - 1 ? ";" : ","));
        }
        src.line("");
        src.line("private final int value;");
        src.line("");
        src.line(cls + "(final int value)");
        src.open();
        src.line("this.value = value;");
        src.close();
        src.line("");
        src.line("/** The IDL value of this enumerator. */");
        src.line("public int value()");
        src.open();
        src.line("return value;");
        src.close();
        src.line("");
        src.line("/** The enumerator with this IDL value; an unknown value is an IllegalArgumentException. */");
        src.line("public static " + cls + " from_int(final int value)");
        src.open();
        src.line("switch (value)");
        src.open();
        for (final Decls.Enumerator en : e.enumerators)
        {
            src.line("case " + (en.value == Integer.MIN_VALUE ? "java.lang.Integer.MIN_VALUE" : en.value) + ":");
            src.line("    return " + Naming.id(en.name) + ";");
        }
        src.line("default:");
        src.line("    throw new java.lang.IllegalArgumentException(\"" + cls + ": no enumerator has value \" + value);");
        src.close();
        src.close();
        src.close();
        return src.toString();
    }

    String bitmaskClass(final Decls.Bitmask b)
    {
        final Src src = new Src();
        final String cls = naming.className(b);
        final boolean isLong = b.bitBound > 32;
        src.line(GeneratedHeader.header(b).strip());
        src.line("public final class " + cls);
        src.open();
        src.line("/** The bit bound: values of this bitmask are Java {@code " + (isLong ? "long" : "int") + "}s. */");
        src.line("public static final int BIT_BOUND = " + b.bitBound + ";");
        for (final Decls.BitFlag f : b.flags)
        {
            src.line("public static final " + (isLong ? "long " : "int ") + Naming.id(f.name) + " = 1"
                + (isLong ? "L" : "") + " << " + f.position + ";");
        }
        src.line("");
        src.line("private " + cls + "()");
        src.open();
        src.close();
        src.close();
        return src.toString();
    }

    String constClass(final Decls.Const c)
    {
        final Src src = new Src();
        src.line(GeneratedHeader.header(c).strip());
        src.line("public interface " + naming.className(c));
        src.open();
        src.line(naming.javaType(c.type) + " value = " + naming.literal(c.value, c.type) + ";");
        src.close();
        return src.toString();
    }
}
