package io.sirocco.idl.gen;

/** A source buffer with Allman-brace indentation, for the generators. */
final class Src
{
    private final StringBuilder sb = new StringBuilder();
    private int indent;
    private int counter;

    Src line(final String text)
    {
        if (text.isEmpty())
        {
            sb.append('\n');
            return this;
        }
        if (text.startsWith("}"))
        {
            indent--;
        }
        sb.append("    ".repeat(Math.max(0, indent))).append(text).append('\n');
        if (text.equals("{") || text.endsWith(" {") && !text.contains("->"))
        {
            indent++;
        }
        return this;
    }

    Src open()
    {
        return line("{");
    }

    Src close()
    {
        return line("}");
    }

    Src close(final String suffix)
    {
        return line("}" + suffix);
    }

    /** A fresh local-variable suffix, so nested generated blocks never shadow each other. */
    String fresh(final String base)
    {
        return base + (counter++);
    }

    @Override
    public String toString()
    {
        return sb.toString();
    }
}
