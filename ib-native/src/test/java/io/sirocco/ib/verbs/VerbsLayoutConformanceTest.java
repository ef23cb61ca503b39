package io.sirocco.ib.verbs;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compiles a C program against the real {@code <infiniband/verbs.h>} that prints {@code sizeof} of every struct in
 * {@link VerbsLayouts#ALL} and {@code offsetof} of every named field (nested ones by dotted path), and asserts the
 * Java layouts give exactly the same numbers. When the header is missing and we run as root (as CI does), it
 * installs {@code libibverbs-dev} with apt first; otherwise it fails and says what to install.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
final class VerbsLayoutConformanceTest
{
    private static final Path HEADER = Path.of("/usr/include/infiniband/verbs.h");

    @BeforeAll
    static void ensureToolchain() throws Exception
    {
        if (!Files.exists(HEADER) || !onPath("gcc"))
        {
            aptInstall();
        }
        assertThat(HEADER).as("libibverbs-dev header (apt-get install libibverbs-dev)").exists();
        assertThat(onPath("gcc")).as("gcc on PATH (apt-get install gcc)").isTrue();
    }

    @Test
    void javaLayoutsMatchTheCompiledHeader(@TempDir final Path dir) throws Exception
    {
        final Map<String, Long> expected = new LinkedHashMap<>();
        final StringBuilder c = new StringBuilder()
            .append("#include <stdio.h>\n#include <stddef.h>\n#include <infiniband/verbs.h>\n")
            .append("int main(void)\n{\n");
        for (final GroupLayout layout : VerbsLayouts.ALL)
        {
            final String type = layout.name().orElseThrow();
            final boolean prefix = VerbsLayouts.PREFIX_BOUND.contains(layout);
            if (!prefix)
            {
                expected.put("sizeof " + type, layout.byteSize());
                c.append("    printf(\"sizeof ").append(type).append(" %zu\\n\", sizeof(").append(type).append("));\n");
            }
            fields(layout, "", 0, type, expected, c);
        }
        c.append("    return 0;\n}\n");

        final Map<String, Long> actual = compileAndRun(dir, c.toString());

        assertThat(expected).hasSizeGreaterThan(200);
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void prefixBoundStructsFitInsideTheirCStruct(@TempDir final Path dir) throws Exception
    {
        final StringBuilder c = new StringBuilder()
            .append("#include <stdio.h>\n#include <infiniband/verbs.h>\nint main(void)\n{\n");
        for (final GroupLayout layout : VerbsLayouts.PREFIX_BOUND)
        {
            final String type = layout.name().orElseThrow();
            c.append("    printf(\"sizeof ").append(type).append(" %zu\\n\", sizeof(").append(type).append("));\n");
        }
        c.append("    return 0;\n}\n");
        final Map<String, Long> sizes = compileAndRun(dir, c.toString());
        for (final GroupLayout layout : VerbsLayouts.PREFIX_BOUND)
        {
            assertThat(sizes.get("sizeof " + layout.name().orElseThrow()))
                .as(layout.name().orElseThrow())
                .isGreaterThanOrEqualTo(layout.byteSize());
        }
    }

    /**
     * Every constant of {@link Verbs} ({@code X} binds {@code IBV_X}) and every name of the completion-status table
     * has the header's value.
     */
    @Test
    void verbsConstantsMatchTheHeader(@TempDir final Path dir) throws Exception
    {
        final Map<String, Long> expected = new LinkedHashMap<>();
        for (final java.lang.reflect.Field field : Verbs.class.getFields())
        {
            if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) && field.getType() == int.class)
            {
                expected.put("IBV_" + field.getName(), (long)field.getInt(null));
            }
        }
        for (int status = 0; status < Verbs.WC_STATUS_NAMES.length; status++)
        {
            expected.put(Verbs.WC_STATUS_NAMES[status], (long)status);
        }
        final StringBuilder c = new StringBuilder()
            .append("#include <stdio.h>\n#include <infiniband/verbs.h>\nint main(void)\n{\n");
        for (final String name : expected.keySet())
        {
            c.append("    printf(\"").append(name).append(" %lld\\n\", (long long)(").append(name).append("));\n");
        }
        c.append("    return 0;\n}\n");

        final Map<String, Long> actual = compileAndRun(dir, c.toString());

        assertThat(expected).hasSizeGreaterThan(50);
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(expected);
    }

    private static void fields(
        final GroupLayout group, final String prefix, final long base, final String type,
        final Map<String, Long> expected, final StringBuilder c)
    {
        for (final MemoryLayout member : group.memberLayouts())
        {
            if (member instanceof PaddingLayout || member.name().isEmpty())
            {
                continue;
            }
            final String path = prefix + member.name().get();
            final long offset = base + group.byteOffset(MemoryLayout.PathElement.groupElement(member.name().get()));
            expected.put("offsetof " + type + " " + path, offset);
            c.append("    printf(\"offsetof ").append(type).append(' ').append(path).append(" %zu\\n\", offsetof(")
                .append(type).append(", ").append(path).append("));\n");
            if (member instanceof GroupLayout nested)
            {
                fields(nested, path + ".", offset, type, expected, c);
            }
        }
    }

    private static Map<String, Long> compileAndRun(final Path dir, final String source) throws Exception
    {
        final Path src = dir.resolve("layouts.c");
        final Path exe = dir.resolve("layouts");
        Files.writeString(src, source);
        final String compileOutput = run(List.of("gcc", "-std=gnu11", "-Wall", "-o", exe.toString(), src.toString()));
        assertThat(exe).as("gcc output:\n" + compileOutput).exists();
        final String out = run(List.of(exe.toString()));
        final Map<String, Long> values = new LinkedHashMap<>();
        for (final String line : out.split("\n"))
        {
            if (line.isBlank())
            {
                continue;
            }
            final int space = line.lastIndexOf(' ');
            values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()));
        }
        return values;
    }

    private static String run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
            assertThat(process.exitValue()).as(String.join(" ", command) + " exit, output:\n" + out).isZero();
            return out;
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static boolean onPath(final String tool)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
        {
            if (Files.isExecutable(Path.of(dir, tool)))
            {
                return true;
            }
        }
        return false;
    }

    /** CI runs as root with Debian's registry reachable; elsewhere this is a no-op and the assertions explain. */
    private static void aptInstall() throws Exception
    {
        if (!"root".equals(System.getProperty("user.name")) || !onPath("apt-get"))
        {
            return;
        }
        final Process process = new ProcessBuilder("sh", "-c",
            "DEBIAN_FRONTEND=noninteractive apt-get install -y libibverbs-dev gcc "
                + "|| (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libibverbs-dev gcc)")
            .redirectErrorStream(true).start();
        try
        {
            process.getInputStream().transferTo(System.err);
            process.waitFor(8, TimeUnit.MINUTES);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
