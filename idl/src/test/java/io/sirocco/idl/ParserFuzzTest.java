package io.sirocco.idl;

import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.IdlException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Mutates the corpus 10,000 times (character edits, token insertions, line duplication and swaps, truncation) and
 * compiles each result: every input must finish within a time bound and fail, if at all, only with
 * {@link IdlException}.
 */
class ParserFuzzTest
{
    private static final int INPUTS = 10_000;
    private static final long BOUND_MS = 5_000;
    private static final String CHARS = "{}()[]<>;:,@#\"'\\\n\t 0123456789abcxyzLE_-+*/~|&^%=.";
    private static final String[] TOKENS = {"module", "struct", "union", "switch", "case", "default", "enum",
        "typedef", "const", "sequence", "string", "wstring", "long", "unsigned", "octet", "@key", "@optional",
        "@id(", "@mutable", "@appendable", "@value(", "@bit_bound(", "@range(min=", "#include \"prep_common.idl\"\n",
        "#include \"fuzz.idl\"\n", "#define X ", "\n#ifdef X\n", "\n#endif\n", "\n#else\n", "\n#if ", "#pragma keylist ",
        "::", "<<", ">>", "bitset", "bitfield<", "bitmask", "0x", "1e", "L'", "L\"", "TRUE", "FALSE", "/*", "*/",
        "//", "9999999999999999999999", "-", "struct A;", "A", "B", "sequence<A>", "[0]", "[3]", "<0>"};

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void mutatedCorpusNeverHangsAndOnlyFailsWithIdlException() throws Exception
    {
        final List<String> seeds = new ArrayList<>();
        for (final Path p : Generated.corpusFiles())
        {
            seeds.add(Files.readString(p));
        }
        final Path fuzzFile = Generated.CORPUS.resolve("fuzz.idl").toAbsolutePath().normalize();
        final SplittableRandom random = new SplittableRandom(0x5eed_1d1L);
        final ExecutorService executor = Executors.newSingleThreadExecutor(r ->
        {
            final Thread t = new Thread(null, r, "idl-fuzz", 64L << 20);
            t.setDaemon(true);
            return t;
        });
        int compiled = 0;
        int rejected = 0;
        try
        {
            for (int i = 0; i < INPUTS; i++)
            {
                final String input = mutate(seeds.get(random.nextInt(seeds.size())), random);
                final Future<Boolean> result = executor.submit(() -> compileOnce(fuzzFile, input));
                try
                {
                    if (result.get(BOUND_MS, TimeUnit.MILLISECONDS))
                    {
                        compiled++;
                    }
                    else
                    {
                        rejected++;
                    }
                }
                catch (final TimeoutException ex)
                {
                    result.cancel(true);
                    fail("input " + i + " did not finish within " + BOUND_MS + " ms:\n" + input);
                }
                catch (final java.util.concurrent.ExecutionException ex)
                {
                    throw new AssertionError("input " + i + " threw " + ex.getCause() + ":\n" + input, ex.getCause());
                }
            }
        }
        finally
        {
            executor.shutdownNow();
        }
        assertThat(compiled + rejected).isEqualTo(INPUTS);
        assertThat(rejected).as("most mutations are invalid").isGreaterThan(INPUTS / 4);
        assertThat(compiled).as("some mutations still compile").isGreaterThan(0);
    }

    private static boolean compileOnce(final Path file, final String text) throws IOException
    {
        try
        {
            new IdlCompiler(List.of(Generated.CORPUS), new GeneratorOptions("", "glob", true), Map.of(file, text))
                .compile(List.of(file));
            return true;
        }
        catch (final IdlException ex)
        {
            assertThat(ex.diagnostics()).isNotEmpty();
            assertThat(ex.diagnostics().getFirst().pos().line()).isPositive();
            return false;
        }
    }

    static String mutate(final String seed, final SplittableRandom random)
    {
        final StringBuilder s = new StringBuilder(seed);
        final int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits && !s.isEmpty(); e++)
        {
            final int at = random.nextInt(s.length());
            switch (random.nextInt(7))
            {
                case 0 -> s.delete(at, Math.min(s.length(), at + 1 + random.nextInt(10)));
                case 1 -> s.insert(at, CHARS.charAt(random.nextInt(CHARS.length())));
                case 2 -> s.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
                case 3 -> s.setCharAt(at, CHARS.charAt(random.nextInt(CHARS.length())));
                case 4 ->
                {
                    final String[] lines = s.toString().split("\n", -1);
                    final int l = random.nextInt(lines.length);
                    s.setLength(0);
                    for (int i = 0; i < lines.length; i++)
                    {
                        s.append(lines[i]).append('\n');
                        if (i == l)
                        {
                            s.append(lines[i]).append('\n');
                        }
                    }
                }
                case 5 ->
                {
                    final String[] lines = s.toString().split("\n", -1);
                    final int a = random.nextInt(lines.length);
                    final int b = random.nextInt(lines.length);
                    final String t = lines[a];
                    lines[a] = lines[b];
                    lines[b] = t;
                    s.setLength(0);
                    s.append(String.join("\n", lines));
                }
                default -> s.setLength(at);
            }
        }
        return s.toString();
    }
}
