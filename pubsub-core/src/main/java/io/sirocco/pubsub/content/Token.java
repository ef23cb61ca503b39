package io.sirocco.pubsub.content;

/**
 * One lexical token of a DDS-SQL expression (OMG DDS 1.4 Annex B), with its 0-based character position.
 *
 * @param kind     what the token is.
 * @param text     the token's text as written (a string literal without its quotes, a parameter without its '%').
 * @param position the 0-based offset of its first character in the expression.
 */
record Token(Kind kind, String text, int position)
{
    enum Kind
    {
        /** A field name, an enumerator or a keyword (AND, OR, NOT, BETWEEN, LIKE, TRUE, FALSE). */
        IDENT,
        INTEGER,
        FLOAT,
        STRING,
        /** {@code %n}: the text is n. */
        PARAM,
        /** One of = &lt;&gt; != &lt; &lt;= &gt; &gt;=. */
        RELOP,
        LPAREN,
        RPAREN,
        DOT,
        LBRACKET,
        RBRACKET,
        MINUS,
        PLUS,
        END
    }

    /** Whether this is the keyword {@code word} (keywords are case-insensitive). */
    boolean isKeyword(final String word)
    {
        return kind == Kind.IDENT && text.equalsIgnoreCase(word);
    }

    /** How an error message shows it. */
    String shown()
    {
        return switch (kind)
        {
            case END -> "end of expression";
            case STRING -> "'" + text + "'";
            case PARAM -> "%" + text;
            default -> "'" + text + "'";
        };
    }
}
