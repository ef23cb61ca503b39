package io.sirocco.idl;

import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.IdlException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every class of bad input gives one precise {@code file:line:col: error: message}, never another exception. The
 * position is where a reader would look: the offending token.
 */
class ErrorLocationTest
{
    private static Diagnostic compileError(final Map<String, String> files)
    {
        final Path dir = Path.of("/bad").toAbsolutePath();
        final Map<Path, String> inMemory = new LinkedHashMap<>();
        for (final Map.Entry<String, String> e : files.entrySet())
        {
            inMemory.put(dir.resolve(e.getKey()).normalize(), e.getValue());
        }
        final IdlException ex = catchThrowableOfType(IdlException.class,
            () -> new IdlCompiler(List.of(), GeneratorOptions.defaults(), inMemory)
                .compile(List.of(dir.resolve(files.keySet().iterator().next()))));
        assertThat(ex).as("expected a compile error").isNotNull();
        assertThat(ex.diagnostics()).hasSize(1);
        return ex.diagnostics().getFirst();
    }

    static Stream<Arguments> badInputs()
    {
        return Stream.of(
            // syntax errors
            Arguments.of("missing semicolon", "module m {\n  struct S { long x }; };\n", 2, 21, "expected ';'"),
            Arguments.of("missing brace", "module m {\n  struct S { long x; };\n", 3, 1, "expected '}'"),
            Arguments.of("bad token", "struct S { long x; $ };\n", 1, 20, "unexpected character '$'"),
            Arguments.of("unterminated string", "const string s = \"abc;\n", 1, 18, "unterminated string"),
            Arguments.of("unterminated comment", "struct S { long x; };\n/* never closed\n", 2, 1,
                "unterminated comment"),
            Arguments.of("keyword as name", "struct S {\n  long module;\n};\n", 2, 8, "'module' is a keyword"),
            Arguments.of("unsupported type", "struct S { any a; };\n", 1, 12, "type 'any' is not supported"),
            // unknown types and names
            Arguments.of("unknown type", "module m {\n  struct S {\n    Missing x;\n  };\n};\n", 3, 5,
                "unknown type 'Missing'"),
            Arguments.of("unknown scoped type", "struct S { ::m::T x; };\n", 1, 12, "unknown type '::m::T'"),
            Arguments.of("unknown constant", "struct S { long x[N]; };\n", 1, 19, "unknown name 'N'"),
            Arguments.of("const is not a type", "const long N = 3;\nstruct S { N x; };\n", 2, 12, "not a type"),
            // duplicate names
            Arguments.of("duplicate struct", "struct A { long x; };\nstruct A { long y; };\n", 2, 8,
                "duplicate name 'A'"),
            Arguments.of("duplicate member", "struct A {\n  long x;\n  short x;\n};\n", 3, 9,
                "duplicate member name 'x'"),
            Arguments.of("duplicate enumerator", "enum E { A, B, A };\n", 1, 16, "duplicate name 'A'"),
            Arguments.of("duplicate case label", "union U switch (long) { case 1: long a; case 1: long b; };\n",
                1, 46, "duplicate case label 1"),
            Arguments.of("duplicate member id", "@mutable struct S { @id(1) long a; @id(1) long b; };\n", 1, 36,
                "member id 1"),
            // keys on non-key-able members
            Arguments.of("key on sequence", "struct S {\n  @key sequence<long> ids;\n};\n", 2, 23,
                "cannot be a key: sequences cannot be keys"),
            Arguments.of("key on union", "union U switch (long) { case 1: long a; };\nstruct S { @key U u; };\n", 2,
                19, "unions cannot be keys"),
            Arguments.of("key and optional", "struct S { @key @optional long a; };\n", 1, 17, "cannot be @optional"),
            Arguments.of("key in union", "union U switch (long) { case 1: @key long a; };\n", 1, 33,
                "@key is not allowed on union member"),
            Arguments.of("keylist unknown member", "struct S { long a; };\n#pragma keylist S b\n", 2, 19,
                "has no member 'b'"),
            // bad annotations
            Arguments.of("unknown annotation", "struct S {\n  @bogus long a;\n};\n", 2, 3, "unknown annotation @bogus"),
            Arguments.of("annotation on wrong element", "@key struct S { long a; };\n", 1, 1,
                "@key cannot be applied to a struct"),
            Arguments.of("conflicting extensibility", "@final @mutable struct S { long a; };\n", 1, 8,
                "conflicting extensibility"),
            Arguments.of("bad extensibility value", "@extensibility(SOMETIMES) struct S { long a; };\n", 1, 16,
                "@extensibility takes FINAL, APPENDABLE or MUTABLE"),
            Arguments.of("bad key parameter", "struct S { @key(3) long a; };\n", 1, 17, "@key takes TRUE or FALSE"),
            Arguments.of("id out of range", "@mutable struct S { @id(268435456) long a; };\n", 1, 25,
                "out of range"),
            // out-of-range constants
            Arguments.of("octet overflow", "const octet O = 256;\n", 1, 17,
                "value 256 is out of range for octet (0..255)"),
            Arguments.of("short underflow", "const short S = -32769;\n", 1, 17, "out of range for short"),
            Arguments.of("unsigned negative", "const unsigned long U = 1 - 2;\n", 1, 27, "out of range"),
            Arguments.of("array dimension zero", "struct S { long a[0]; };\n", 1, 19, "array dimension 0 is out of range"),
            Arguments.of("bad case label type", "union U switch (long) { case 'x': long a; };\n", 1, 30,
                "case label must be an integer"),
            Arguments.of("division by zero", "const long X = 1 / 0;\n", 1, 18, "division by zero"),
            Arguments.of("default outside range", "struct S { @default(7) @range(min = 0, max = 5) long a; };\n", 1,
                12, "lies outside its @range"),
            // recursion without a sequence
            Arguments.of("direct recursion", "struct A;\nstruct A {\n  A self;\n};\n", 3, 5,
                "recursive type 'A' contains itself without a sequence"),
            Arguments.of("mutual recursion", "struct B;\nstruct A { B b; };\nstruct B { A a; };\n", 2, 14,
                "recursive type 'A' contains itself"),
            Arguments.of("forward never defined", "struct F;\nstruct S { sequence<F> fs; };\n", 2, 24,
                "forward-declared but never defined"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void reportsTheExactPosition(final String name, final String idl, final int line, final int column,
        final String message)
    {
        final Diagnostic d = compileError(Map.of("bad.idl", idl));
        assertThat(d.message()).as(name).contains(message);
        assertThat(d.pos().file()).as(name).endsWith("bad.idl");
        assertThat(d.pos().line()).as(name + ": " + d).isEqualTo(line);
        assertThat(d.pos().column()).as(name + ": " + d).isEqualTo(column);
        assertThat(d.toString()).matches(".*bad\\.idl:" + line + ":" + column + ": error: .*");
    }

    @Test
    void includeCycleIsReportedAtTheIncludeThatClosesIt()
    {
        final Map<String, String> files = new LinkedHashMap<>();
        files.put("a.idl", "#include \"b.idl\"\nstruct A { long x; };\n");
        files.put("b.idl", "// b\n#include \"a.idl\"\n");
        final Diagnostic d = compileError(files);
        assertThat(d.message()).isEqualTo("include cycle: a.idl -> b.idl -> a.idl");
        assertThat(d.pos().file()).endsWith("b.idl");
        assertThat(d.pos().line()).isEqualTo(2);
        assertThat(d.pos().column()).isEqualTo(10);
    }

    @Test
    void missingIncludeNamesTheDirective()
    {
        final Diagnostic d = compileError(Map.of("main.idl", "\n  #include \"nowhere.idl\"\n"));
        assertThat(d.message()).contains("included file \"nowhere.idl\" not found");
        assertThat(d.pos().line()).isEqualTo(2);
        assertThat(d.pos().column()).isEqualTo(12);
    }

    @Test
    void errorsInIncludedFilesNameThatFile()
    {
        final Map<String, String> files = new LinkedHashMap<>();
        files.put("top.idl", "#include \"types.idl\"\n");
        files.put("types.idl", "struct T {\n  long x\n};\n");
        final Diagnostic d = compileError(files);
        assertThat(d.pos().file()).endsWith("types.idl");
        assertThat(d.pos().line()).isEqualTo(3);
        assertThat(d.pos().column()).isEqualTo(1);
    }

    @Test
    void preprocessorErrorsArePositioned()
    {
        assertThat(compileError(Map.of("p.idl", "#ifdef X\nstruct S { long a; };\n")).message())
            .contains("missing #endif");
        final Diagnostic endif = compileError(Map.of("p.idl", "struct S { long a; };\n#endif\n"));
        assertThat(endif.message()).contains("#endif without #if");
        assertThat(endif.pos().line()).isEqualTo(2);
        final Diagnostic macro = compileError(Map.of("p.idl", "#define F(x) x\n"));
        assertThat(macro.message()).contains("function-like macro 'F' is not supported");
        assertThat(macro.pos().column()).isEqualTo(9);
        final Diagnostic error = compileError(Map.of("p.idl", "\n#error stop here\n"));
        assertThat(error.message()).isEqualTo("#error stop here");
        assertThat(error.pos().line()).isEqualTo(2);
    }
}
