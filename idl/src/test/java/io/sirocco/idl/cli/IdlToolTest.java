package io.sirocco.idl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The standalone {@code idl} tool: exit codes, error lines, and all-or-nothing output. */
class IdlToolTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return IdlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void compilesWithPrefixAndGlobalPackage(@TempDir final Path tmp) throws IOException
    {
        final Path idl = tmp.resolve("t.idl");
        Files.writeString(idl, "struct G { long a; };\nmodule m { struct S { G g; }; };\n");
        final Path outDir = tmp.resolve("gen");
        assertThat(run("-d", outDir.toString(), "--package-prefix", "p", "--global-package", "p.glob", idl.toString()))
            .isZero();
        assertThat(outDir.resolve("p/m/S.java")).exists();
        assertThat(outDir.resolve("p/glob/G.java")).exists();
        assertThat(Files.readString(outDir.resolve("p/m/S.java"))).contains("public p.glob.G g;");
        assertThat(Files.list(outDir).map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".idl-staging"));
    }

    @Test
    void reportsEveryErrorAsFileLineColumnAndWritesNothing(@TempDir final Path tmp) throws IOException
    {
        final Path idl = tmp.resolve("e.idl");
        Files.writeString(idl, "module m {\n  const octet X = 300;\n};\n");
        final Path outDir = tmp.resolve("gen");
        assertThat(run("-d", outDir.toString(), idl.toString())).isEqualTo(IdlTool.COMPILE_ERROR);
        assertThat(err.toString(StandardCharsets.UTF_8).strip())
            .isEqualTo(idl + ":2:19: error: constant 'X' value 300 is out of range for octet (0..255)");
        assertThat(outDir).doesNotExist();
    }

    @Test
    void reportsEveryErrorOfAFileInOneRun(@TempDir final Path tmp) throws IOException
    {
        final Path idl = tmp.resolve("three.idl");
        Files.writeString(idl, "struct A { long x };\nstruct B { long; };\nstruct C { any a; };\n");
        assertThat(run("-d", tmp.resolve("gen").toString(), idl.toString())).isEqualTo(IdlTool.COMPILE_ERROR);
        assertThat(err.toString(StandardCharsets.UTF_8).strip().lines()).containsExactly(
            idl + ":1:19: error: expected ';' but found '}'",
            idl + ":2:16: error: expected a member name but found ';'",
            idl + ":3:12: error: type 'any' is not supported");
    }

    @Test
    void release21LeavesOutForeignTypesAndFlatViews(@TempDir final Path tmp) throws IOException
    {
        final Path idl = tmp.resolve("f.idl");
        Files.writeString(idl, "module m { struct P { long x; double y; }; };\n");
        final Path full = tmp.resolve("full");
        final Path older = tmp.resolve("older");
        assertThat(run("-d", full.toString(), idl.toString())).isZero();
        assertThat(run("-d", older.toString(), "--release", "21", idl.toString())).isZero();
        assertThat(full.resolve("m/PFlat.java")).exists();
        assertThat(older.resolve("m/PFlat.java")).doesNotExist();
        assertThat(Files.readString(older.resolve("m/PTypeSupport.java")))
            .contains("extends io.sirocco.dds.type.cdr.BodyCodec<P>").doesNotContain("java.lang.foreign");
    }

    @Test
    void releasesBelow21OrNotNumbersAreUsageErrors()
    {
        assertThat(run("--release", "17", "x.idl")).isEqualTo(IdlTool.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--release 17: generated types need Java 21");
        assertThat(run("--release", "latest", "x.idl")).isEqualTo(IdlTool.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--release takes a Java release number");
    }

    @Test
    void usageErrorsExitTwo()
    {
        assertThat(run()).isEqualTo(IdlTool.USAGE);
        assertThat(run("-d")).isEqualTo(IdlTool.USAGE);
        assertThat(run("--what", "x.idl")).isEqualTo(IdlTool.USAGE);
        assertThat(run("--package-prefix", "1bad", "x.idl")).isEqualTo(IdlTool.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: idl");
        assertThat(run("--help")).isZero();
    }
}
