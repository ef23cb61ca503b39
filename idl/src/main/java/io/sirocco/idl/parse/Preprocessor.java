package io.sirocco.idl.parse;

import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The IDL preprocessor (IDL 4.2 §7.3): {@code #include "f"} and {@code <f>} (searched beside the including file,
 * then in the {@code -I} directories), object-like {@code #define} and {@code #undef}, {@code #ifdef},
 * {@code #ifndef}, {@code #if}, {@code #elif}, {@code #else}, {@code #endif}, {@code #error}, and
 * {@code #pragma keylist} (passed to the parser as a token). A file is read at most once per compilation, as with
 * {@code #pragma once}, so shared includes need no guards; an include of a file that is still open is a cycle and an
 * error.
 */
public final class Preprocessor
{
    private final List<Path> includeDirs;
    private final Map<String, List<Token>> macros = new HashMap<>();
    private final Set<Path> done = new HashSet<>();
    private final Deque<Path> open = new ArrayDeque<>();
    private final List<Token> out = new ArrayList<>();
    private final Map<Path, String> sources;
    private SourcePos lastEnd;

    /**
     * @param sources optional in-memory file contents keyed by normalized absolute path (tests); files not in it are
     *        read from disk.
     */
    public Preprocessor(final List<Path> includeDirs, final Map<Path, String> sources)
    {
        this.includeDirs = includeDirs;
        this.sources = sources == null ? Map.of() : sources;
    }

    /** Preprocesses the given root files in order into one token stream ending with EOF. */
    public List<Token> run(final List<Path> files) throws IdlException
    {
        for (final Path file : files)
        {
            final Path abs = file.toAbsolutePath().normalize();
            if (!done.contains(abs))
            {
                process(abs, file.toString(), new SourcePos(file.toString(), 1, 1), true);
            }
        }
        final SourcePos end = lastEnd != null ? lastEnd
            : new SourcePos(files.isEmpty() ? "<none>" : files.getLast().toString(), 1, 1);
        out.add(new Token(Token.Kind.EOF, "", null, false, end));
        return out;
    }

    private String read(final Path abs, final SourcePos from, final boolean root) throws IdlException
    {
        final String inMemory = sources.get(abs);
        if (inMemory != null)
        {
            return inMemory;
        }
        try
        {
            return Files.readString(abs, StandardCharsets.UTF_8);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IdlException(from, (root ? "cannot read file " : "cannot read included file ") + abs
                + " (" + ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage()) + ")");
        }
    }

    private boolean exists(final Path abs)
    {
        return sources.containsKey(abs) || Files.isRegularFile(abs);
    }

    private void process(final Path abs, final String displayName, final SourcePos from, final boolean root)
        throws IdlException
    {
        if (open.contains(abs))
        {
            final StringBuilder chain = new StringBuilder();
            boolean started = false;
            for (final var it = open.descendingIterator(); it.hasNext(); )
            {
                final Path p = it.next();
                started |= p.equals(abs);
                if (started)
                {
                    chain.append(p.getFileName()).append(" -> ");
                }
            }
            chain.append(abs.getFileName());
            throw new IdlException(from, "include cycle: " + chain);
        }
        final String text = read(abs, from, root);
        open.push(abs);
        final List<Token> tokens = new Lexer(text, displayName).tokenize();
        final Deque<boolean[]> conditions = new ArrayDeque<>(); // {active, anyBranchTaken, parentActive}
        for (final Token t : tokens)
        {
            final boolean active = conditions.isEmpty() || conditions.peek()[0];
            if (t.kind() == Token.Kind.EOF)
            {
                break;
            }
            if (t.kind() == Token.Kind.DIRECTIVE)
            {
                directive(t, abs, conditions, active);
                continue;
            }
            if (active)
            {
                expand(t, out, new HashSet<>());
            }
        }
        if (!conditions.isEmpty())
        {
            throw new IdlException(new SourcePos(displayName, tokens.getLast().pos().line(), 1),
                "missing #endif at end of file");
        }
        open.pop();
        done.add(abs);
        if (root)
        {
            lastEnd = tokens.getLast().pos();
        }
    }

    private void expand(final Token t, final List<Token> into, final Set<String> expanding) throws IdlException
    {
        if (t.kind() == Token.Kind.IDENT && macros.containsKey(t.text()) && !expanding.contains(t.text()))
        {
            expanding.add(t.text());
            for (final Token r : macros.get(t.text()))
            {
                expand(new Token(r.kind(), r.text(), r.value(), r.wide(), t.pos()), into, expanding);
            }
            expanding.remove(t.text());
            return;
        }
        into.add(t);
    }

    private void directive(final Token t, final Path currentFile, final Deque<boolean[]> conditions,
        final boolean active) throws IdlException
    {
        final String body = t.text().strip();
        int nameEnd = 0;
        while (nameEnd < body.length() && Character.isLetter(body.charAt(nameEnd)))
        {
            nameEnd++;
        }
        final String name = body.substring(0, nameEnd);
        final String rest = body.substring(nameEnd).strip();
        final SourcePos restPos = new SourcePos(t.pos().file(), t.pos().line(),
            t.pos().column() + 1 + t.text().indexOf(rest.isEmpty() ? " " : rest));
        if (conditional(name, rest, restPos, t, conditions, active))
        {
            return;
        }
        if (!active)
        {
            return;
        }
        switch (name)
        {
            case "define" -> define(rest, restPos);
            case "undef" -> macros.remove(singleIdentifier(rest, restPos, name));
            case "include" -> include(rest, restPos, currentFile);
            case "pragma" -> pragma(rest, restPos);
            case "error" -> throw new IdlException(t.pos(), "#error " + rest);
            case "warning", "line", "ident" ->
            {
                // Informational directives carry nothing for code generation.
            }
            default -> throw new IdlException(t.pos(), name.isEmpty() ? "malformed preprocessor directive"
                : "unknown preprocessor directive '#" + name + "'");
        }
    }

    /** Handles a conditional directive (#ifdef, #ifndef, #if, #elif, #else, #endif); false for any other. */
    private boolean conditional(final String name, final String rest, final SourcePos restPos, final Token t,
        final Deque<boolean[]> conditions, final boolean active) throws IdlException
    {
        switch (name)
        {
            case "ifdef", "ifndef" ->
            {
                final String macro = singleIdentifier(rest, restPos, name);
                final boolean cond = macros.containsKey(macro) == name.equals("ifdef");
                conditions.push(new boolean[] {active && cond, cond, active});
                return true;
            }
            case "if" ->
            {
                final boolean cond = active && evaluate(rest, restPos);
                conditions.push(new boolean[] {active && cond, cond, active});
                return true;
            }
            case "elif" ->
            {
                final boolean[] top = requireOpen(conditions, t, name);
                final boolean cond = !top[1] && top[2] && evaluate(rest, restPos);
                top[0] = top[2] && cond;
                top[1] |= cond;
                return true;
            }
            case "else" ->
            {
                final boolean[] top = requireOpen(conditions, t, name);
                top[0] = top[2] && !top[1];
                top[1] = true;
                return true;
            }
            case "endif" ->
            {
                requireOpen(conditions, t, name);
                conditions.pop();
                return true;
            }
            default ->
            {
                return false;
            }
        }
    }

    private void define(final String rest, final SourcePos restPos) throws IdlException
    {
        final List<Token> tokens = Lexer.lexFragment(rest, restPos);
        if (tokens.isEmpty() || tokens.getFirst().kind() != Token.Kind.IDENT)
        {
            throw new IdlException(restPos, "#define needs a macro name");
        }
        final Token macro = tokens.getFirst();
        if (tokens.size() > 1 && tokens.get(1).is("(")
            && tokens.get(1).pos().column() == macro.pos().column() + macro.text().length())
        {
            throw new IdlException(macro.pos(), "function-like macro '" + macro.text() + "' is not supported");
        }
        macros.put(macro.text(), List.copyOf(tokens.subList(1, tokens.size())));
    }

    private static boolean[] requireOpen(final Deque<boolean[]> conditions, final Token t, final String name)
        throws IdlException
    {
        if (conditions.isEmpty())
        {
            throw new IdlException(t.pos(), "#" + name + " without #if");
        }
        return conditions.peek();
    }

    private static String singleIdentifier(final String rest, final SourcePos pos, final String directive)
        throws IdlException
    {
        final List<Token> tokens = Lexer.lexFragment(rest, pos);
        if (tokens.size() != 1 || tokens.getFirst().kind() != Token.Kind.IDENT)
        {
            throw new IdlException(pos, "#" + directive + " needs exactly one macro name");
        }
        return tokens.getFirst().text();
    }

    private void include(final String rest, final SourcePos pos, final Path currentFile) throws IdlException
    {
        final String target;
        final boolean quoted;
        if (rest.length() >= 2 && rest.startsWith("\"") && rest.indexOf('"', 1) > 0)
        {
            target = rest.substring(1, rest.indexOf('"', 1));
            quoted = true;
        }
        else if (rest.length() >= 2 && rest.startsWith("<") && rest.indexOf('>') > 0)
        {
            target = rest.substring(1, rest.indexOf('>'));
            quoted = false;
        }
        else
        {
            throw new IdlException(pos, "#include needs \"file\" or <file>");
        }
        if (target.isEmpty())
        {
            throw new IdlException(pos, "#include of an empty file name");
        }
        final List<Path> candidates = new ArrayList<>();
        try
        {
            if (quoted && currentFile.getParent() != null)
            {
                candidates.add(currentFile.getParent().resolve(target).normalize());
            }
            for (final Path dir : includeDirs)
            {
                candidates.add(dir.toAbsolutePath().resolve(target).normalize());
            }
        }
        catch (final RuntimeException ex)
        {
            throw new IdlException(pos, "invalid include file name \"" + target + "\"");
        }
        for (final Path candidate : candidates)
        {
            if (exists(candidate))
            {
                if (!done.contains(candidate) || open.contains(candidate))
                {
                    process(candidate, displayName(candidate), pos, false);
                }
                return;
            }
        }
        throw new IdlException(pos, "included file \"" + target + "\" not found (searched "
            + (quoted ? "beside the including file and " : "") + includeDirs.size() + " -I director"
            + (includeDirs.size() == 1 ? "y" : "ies") + ")");
    }

    private static String displayName(final Path abs)
    {
        final Path cwd = Path.of("").toAbsolutePath();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }

    private void pragma(final String rest, final SourcePos pos) throws IdlException
    {
        final List<Token> tokens = Lexer.lexFragment(rest, pos);
        if (tokens.isEmpty())
        {
            return;
        }
        if (tokens.getFirst().is("keylist"))
        {
            out.add(new Token(Token.Kind.PRAGMA_KEYLIST, "keylist", List.copyOf(tokens.subList(1, tokens.size())),
                false, pos));
        }
        // Other pragmas (once, prefix, version, ...) do not affect the Java mapping.
    }

    // Tiny #if evaluator: integers, defined(X), ! ~ - + * / % << >> < > <= >= == != & ^ | && || and parentheses.
    private boolean evaluate(final String expression, final SourcePos pos) throws IdlException
    {
        final List<Token> raw = Lexer.lexFragment(expression, pos);
        final List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++)
        {
            final Token t = raw.get(i);
            if (t.is("defined"))
            {
                int j = i + 1;
                final boolean paren = j < raw.size() && raw.get(j).is("(");
                if (paren)
                {
                    j++;
                }
                if (j >= raw.size() || raw.get(j).kind() != Token.Kind.IDENT)
                {
                    throw new IdlException(t.pos(), "defined needs a macro name");
                }
                final boolean d = macros.containsKey(raw.get(j).text());
                if (paren)
                {
                    j++;
                    if (j >= raw.size() || !raw.get(j).is(")"))
                    {
                        throw new IdlException(t.pos(), "missing ')' after defined(");
                    }
                }
                tokens.add(new Token(Token.Kind.INTEGER, d ? "1" : "0", d ? BigInteger.ONE : BigInteger.ZERO, false,
                    t.pos()));
                i = j;
            }
            else
            {
                expand(t, tokens, new HashSet<>());
            }
        }
        if (tokens.isEmpty())
        {
            throw new IdlException(pos, "#if needs an expression");
        }
        final IfEvaluator evaluator = new IfEvaluator(tokens, pos);
        final long v = evaluator.parse(0);
        evaluator.expectEnd();
        return v != 0;
    }
}
