package io.sirocco.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code sirocco idl} contract: exit 0/1/2, {@code file:line:col: error:} lines, nothing written on error. */
class IdlCommandTest
{
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args)
    {
        final CommandLine cli = SiroccoCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private static long fileCount(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir))
        {
            return walk.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void generatesJavaForGoodInput(@TempDir final Path tmp) throws IOException
    {
        final Path common = tmp.resolve("inc/common.idl");
        Files.createDirectories(common.getParent());
        Files.writeString(common, "module common { struct Stamp { unsigned long long ns; }; };\n");
        final Path idl = tmp.resolve("demo.idl");
        Files.writeString(idl, "#include <common.idl>\nmodule demo { @topic struct Msg { @key long id; "
            + "common::Stamp stamp; string text; }; };\n");
        final Path outDir = tmp.resolve("out");
        final int code = run("idl", "-d", outDir.toString(), "-I", tmp.resolve("inc").toString(), "--package-prefix",
            "com.example", idl.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(outDir.resolve("com/example/demo/Msg.java")).exists();
        assertThat(outDir.resolve("com/example/demo/MsgTypeSupport.java")).exists();
        assertThat(outDir.resolve("com/example/common/Stamp.java")).exists();
        assertThat(Files.readString(outDir.resolve("com/example/demo/Msg.java"))).contains("package com.example.demo;");
    }

    @Test
    void errorsExitOneWithPositionsAndWriteNothing(@TempDir final Path tmp) throws IOException
    {
        final Path good = tmp.resolve("good.idl");
        Files.writeString(good, "module ok { struct Fine { long a; }; };\n");
        final Path bad = tmp.resolve("bad.idl");
        Files.writeString(bad, "module m {\n  struct S {\n    Unknown u;\n  };\n};\n");
        final Path outDir = tmp.resolve("out");
        final int code = run("idl", "-d", outDir.toString(), good.toString(), bad.toString());
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip()).isEqualTo(bad + ":3:5: error: unknown type 'Unknown'");
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(fileCount(outDir)).isZero();
    }

    @Test
    void badUsageExitsTwo(@TempDir final Path tmp)
    {
        assertThat(run("idl")).isEqualTo(2);
        assertThat(run("idl", "--no-such-option", "x.idl")).isEqualTo(2);
        assertThat(run("idl", "--package-prefix", "not a package", tmp.resolve("x.idl").toString())).isEqualTo(2);
    }

    @Test
    void missingFileIsACompileError(@TempDir final Path tmp) throws IOException
    {
        final Path outDir = tmp.resolve("out");
        assertThat(run("idl", "-d", outDir.toString(), tmp.resolve("absent.idl").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("absent.idl:1:1: error: cannot read file");
        assertThat(fileCount(outDir)).isZero();
    }

    @Test
    void exampleTypesAreGeneratedByTheMavenPlugin() throws Exception
    {
        // examples/pom.xml runs io.sirocco:idl-maven-plugin on src/main/idl: the generated classes are on the path.
        final Class<?> support = Class.forName("avionics.AirDataTypeSupport");
        final Object codec = support.getField("INSTANCE").get(null);
        assertThat(codec).isInstanceOf(io.sirocco.dds.type.TypeCodec.class);
        assertThat(((io.sirocco.dds.type.TypeCodec<?>)codec).typeName()).isEqualTo("avionics::AirData");
        assertThat(Class.forName("avionics.AirDataFlat")).isNotNull();
        assertThat(Class.forName("sirocco.perf.SampleTypeSupport")).isNotNull();
        assertThat(Class.forName("shapes.ShapeTypeTypeSupport").getField("TYPE_NAME").get(null)).isEqualTo("ShapeType");
        assertThat(Class.forName("hello.HelloMsgTypeSupport")).isNotNull();
    }
}
