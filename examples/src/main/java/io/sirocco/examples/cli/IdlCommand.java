package io.sirocco.examples.cli;

import io.sirocco.idl.cli.IdlTool;
import io.sirocco.idl.gen.GeneratorOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code sirocco idl [-d OUTDIR] [-I DIR]... [--package-prefix P] [--release N] FILE...}: compiles IDL to Java. Exit 0 on success,
 * 1 on any compile error (each printed as {@code file:line:col: error: message}, nothing written), 2 on bad usage.
 */
@Command(
    name = "idl",
    mixinStandardHelpOptions = true,
    description = "Compile OMG IDL files to Java (XCDR2 type support, flat views for fixed-size structs).")
public final class IdlCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "-d", paramLabel = "OUTDIR", description = "Output directory (default: current directory).")
    private String outDir = ".";

    @Option(names = "-I", paramLabel = "DIR", description = "Add an #include search directory.")
    private List<String> includes = new ArrayList<>();

    @Option(names = "--package-prefix", paramLabel = "P", description = "Prefix for every generated package.")
    private String packagePrefix = "";

    @Option(names = "--global-package", paramLabel = "P",
        description = "Java package for global-scope definitions (default: unnamed package or the prefix).")
    private String globalPackage = "";

    @Option(names = "--release", paramLabel = "N", description = "The Java release the generated sources must "
        + "compile with: 21 leaves out java.lang.foreign (a preview API in 21), and so the flat views "
        + "(default: ${DEFAULT-VALUE}).")
    private int release = GeneratorOptions.DEFAULT_RELEASE;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "IDL files, compiled together.")
    private List<String> files = new ArrayList<>();

    @Override
    public Integer call()
    {
        final PrintStream out = new PrintStream(new WriterOutputStream(spec.commandLine().getOut()), true,
            StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(new WriterOutputStream(spec.commandLine().getErr()), true,
            StandardCharsets.UTF_8);
        return IdlTool.compile(files, includes, outDir, packagePrefix, globalPackage, release, out, err);
    }

    /** Bridges picocli's writers (which tests can capture) to the tool's print streams. */
    private static final class WriterOutputStream extends OutputStream
    {
        private final PrintWriter writer;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        WriterOutputStream(final PrintWriter writer)
        {
            this.writer = writer;
        }

        @Override
        public void write(final int b)
        {
            pending.write(b);
            if (b == '\n')
            {
                flush();
            }
        }

        @Override
        public void flush()
        {
            writer.print(pending.toString(StandardCharsets.UTF_8));
            writer.flush();
            pending.reset();
        }
    }
}
