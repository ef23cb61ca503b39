package io.sirocco.idl;

import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.IdlException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The compiler recovers from an error and reports every error of a file in one run, each at its own
 * {@code file:line:col}, and none twice or as a consequence of another.
 */
class ErrorRecoveryTest
{
    private static List<String> errors(final String idl)
    {
        final Path file = Path.of("/bad/three.idl").toAbsolutePath();
        final IdlException ex = catchThrowableOfType(IdlException.class,
            () -> new IdlCompiler(List.of(), GeneratorOptions.defaults(), Map.of(file, idl)).compile(List.of(file)));
        assertThat(ex).as("expected compile errors").isNotNull();
        return ex.diagnostics().stream().map(Diagnostic::toString)
            .map(s -> s.substring(s.indexOf("three.idl"))).toList();
    }

    @Test
    void threeSyntaxErrorsInThreeDefinitionsGiveThreeLocatedErrors()
    {
        final String idl = """
            struct A { long x };
            module m {
              struct B { long; };
              struct Ok { long y; };
            };
            struct C { any a; };
            struct D { long z; };
            """;
        assertThat(errors(idl)).containsExactly(
            "three.idl:1:19: error: expected ';' but found '}'",
            "three.idl:3:18: error: expected a member name but found ';'",
            "three.idl:6:12: error: type 'any' is not supported");
    }

    @Test
    void threeBadMembersOfOneStructGiveThreeLocatedErrors()
    {
        final String idl = """
            struct S {
              long a
              short b;
              sequence<long c;
              string<5 d;
              long ok;
            };
            """;
        assertThat(errors(idl)).containsExactly(
            "three.idl:3:3: error: expected ';' but found 'short'",
            "three.idl:4:17: error: expected '>' but found 'c'",
            "three.idl:5:12: error: expected '>' but found 'd'");
    }

    @Test
    void threeSemanticErrorsGiveThreeLocatedErrors()
    {
        final String idl = """
            module m {
              struct S { Missing x; };
              const octet O = 256;
            };
            struct T {
              long a;
              short a;
            };
            struct U { m::S s; long b; };
            """;
        assertThat(errors(idl)).containsExactly(
            "three.idl:2:14: error: unknown type 'Missing'",
            "three.idl:3:19: error: constant 'O' value 256 is out of range for octet (0..255)",
            "three.idl:7:9: error: duplicate member name 'a' in struct 'T' (first at "
                + Path.of("/bad/three.idl").toAbsolutePath() + ":6:8)");
    }
}
