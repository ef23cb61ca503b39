package io.sirocco.idl.parse;

import io.sirocco.idl.model.SourcePos;

/**
 * A lexical token. {@code value} holds the literal's value (BigInteger, Double, Character, String) for literals,
 * the directive text for {@link Kind#DIRECTIVE}, and null otherwise.
 */
public record Token(Kind kind, String text, Object value, boolean wide, SourcePos pos)
{
    public enum Kind
    {
        IDENT, INTEGER, FLOAT, CHAR, STRING, PUNCT, DIRECTIVE, PRAGMA_KEYLIST, EOF
    }

    public boolean is(final String punctOrKeyword)
    {
        return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(punctOrKeyword);
    }

    public String describe()
    {
        return switch (kind)
        {
            case EOF -> "end of file";
            case STRING -> "string literal";
            case CHAR -> "character literal";
            case DIRECTIVE -> "preprocessor directive";
            case PRAGMA_KEYLIST -> "#pragma keylist";
            default -> "'" + text + "'";
        };
    }
}
