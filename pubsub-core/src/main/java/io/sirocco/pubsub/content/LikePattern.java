package io.sirocco.pubsub.content;

/**
 * A DDS-SQL LIKE pattern: {@code %} matches any run of characters (also none), {@code _} exactly one, every other
 * character itself (case-sensitive). Matching walks the text once with one backtrack point for the last {@code %},
 * so it allocates nothing and is linear in practice. Immutable.
 */
final class LikePattern
{
    private final String pattern;

    LikePattern(final String pattern)
    {
        this.pattern = pattern;
    }

    boolean matches(final String text)
    {
        int t = 0;
        int p = 0;
        int starP = -1;
        int starT = 0;
        while (t < text.length())
        {
            if (p < pattern.length() && (pattern.charAt(p) == '_' || pattern.charAt(p) == text.charAt(t)) &&
                pattern.charAt(p) != '%')
            {
                t++;
                p++;
            }
            else if (p < pattern.length() && pattern.charAt(p) == '%')
            {
                starP = p++;
                starT = t;
            }
            else if (starP >= 0)
            {
                p = starP + 1;
                t = ++starT;
            }
            else
            {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '%')
        {
            p++;
        }
        return p == pattern.length();
    }

    @Override
    public String toString()
    {
        return pattern;
    }
}
