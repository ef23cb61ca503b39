package io.sirocco.idl.cli;

import io.sirocco.idl.IdlCompiler;
import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.IdlException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code idl} command: {@code [-d OUTDIR] [-I DIR]... [--package-prefix P] [--global-package P] [--release N]
 * FILE...}. {@code --release 21} generates sources that compile with {@code javac --release 21} (no
 * {@code java.lang.foreign}, so no flat views); the default is the full form for JDK 25. Exit 0 on success; 1 on any compile error, each printed as {@code file:line:col: error: message}, with no output
 * written; 2 on bad usage. The {@code sirocco idl} subcommand calls {@link #compile}; {@link #main} runs it alone.
 */
public final class IdlTool
{
    public static final int OK = 0;
    public static final int COMPILE_ERROR = 1;
    public static final int USAGE = 2;

    public static final String USAGE_TEXT =
        "usage: idl [-d OUTDIR] [-I DIR]... [--package-prefix P] [--global-package P] [--release N] FILE...";

    private IdlTool()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        String outDir = ".";
        String prefix = "";
        String global = "";
        String release = String.valueOf(GeneratorOptions.DEFAULT_RELEASE);
        final List<String> includes = new ArrayList<>();
        final List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            switch (a)
            {
                case "-d", "-I", "--package-prefix", "--global-package", "--release" ->
                {
                    if (i + 1 >= args.length)
                    {
                        err.println("idl: option " + a + " needs a value");
                        err.println(USAGE_TEXT);
                        return USAGE;
                    }
                    final String v = args[++i];
                    switch (a)
                    {
                        case "-d" -> outDir = v;
                        case "-I" -> includes.add(v);
                        case "--package-prefix" -> prefix = v;
                        case "--release" -> release = v;
                        default -> global = v;
                    }
                }
                case "-h", "--help" ->
                {
                    out.println(USAGE_TEXT);
                    return OK;
                }
                default ->
                {
                    if (a.startsWith("-I") && a.length() > 2)
                    {
                        includes.add(a.substring(2));
                    }
                    else if (a.startsWith("-") && a.length() > 1)
                    {
                        err.println("idl: unknown option " + a);
                        err.println(USAGE_TEXT);
                        return USAGE;
                    }
                    else
                    {
                        files.add(a);
                    }
                }
            }
        }
        final int releaseNumber = release(release, err);
        return releaseNumber < 0 ? USAGE : compile(files, includes, outDir, prefix, global, releaseNumber, out, err);
    }

    /** The {@code --release} value as a number, or -1 after printing why it is not one. */
    private static int release(final String value, final PrintStream err)
    {
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            err.println("idl: --release takes a Java release number, e.g. 21 (not '" + value + "')");
            err.println(USAGE_TEXT);
            return -1;
        }
    }

    /** Runs a compilation with parsed options; see the class comment for the exit codes. */
    public static int compile(final List<String> files, final List<String> includes, final String outDir,
        final String packagePrefix, final String globalPackage, final int release, final PrintStream out,
        final PrintStream err)
    {
        if (!usable(files, packagePrefix, globalPackage, release, err))
        {
            return USAGE;
        }
        final List<Path> filePaths = new ArrayList<>();
        final List<Path> includePaths = new ArrayList<>();
        final Path out0;
        try
        {
            for (final String f : files)
            {
                filePaths.add(Path.of(f));
            }
            for (final String i : includes)
            {
                includePaths.add(Path.of(i));
            }
            out0 = Path.of(outDir);
        }
        catch (final InvalidPathException ex)
        {
            err.println("idl: invalid path: " + ex.getInput());
            return USAGE;
        }
        final Map<String, String> sources;
        try
        {
            sources = new IdlCompiler(includePaths, new GeneratorOptions(packagePrefix, globalPackage, false,
                release))
                .compile(filePaths);
        }
        catch (final IdlException ex)
        {
            for (final Diagnostic d : ex.diagnostics())
            {
                err.println(d);
            }
            return COMPILE_ERROR;
        }
        try
        {
            IdlCompiler.write(sources, out0);
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println(outDir + ": error: cannot write generated sources: " + ex.getMessage());
            return COMPILE_ERROR;
        }
        out.println("idl: generated " + sources.size() + " Java files into " + outDir);
        return OK;
    }

    /** Whether the option values can be used; if not, says why on {@code err}. */
    private static boolean usable(final List<String> files, final String packagePrefix, final String globalPackage,
        final int release, final PrintStream err)
    {
        if (files.isEmpty())
        {
            err.println("idl: no input files");
            err.println(USAGE_TEXT);
            return false;
        }
        if (!validPackage(packagePrefix) || !validPackage(globalPackage))
        {
            err.println("idl: not a Java package name: " + (validPackage(packagePrefix) ? globalPackage : packagePrefix));
            return false;
        }
        if (release < GeneratorOptions.MIN_RELEASE)
        {
            err.println("idl: --release " + release + ": generated types need Java " + GeneratorOptions.MIN_RELEASE
                + " or later");
            return false;
        }
        return true;
    }

    static boolean validPackage(final String p)
    {
        if (p.isEmpty())
        {
            return true;
        }
        for (final String part : p.split("\\.", -1))
        {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0)))
            {
                return false;
            }
            for (int i = 1; i < part.length(); i++)
            {
                if (!Character.isJavaIdentifierPart(part.charAt(i)))
                {
                    return false;
                }
            }
        }
        return true;
    }
}
