package io.sirocco.examples.cli.log;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Ordered result fields of a benchmark, printed as text lines and as one JSON object. */
public final class BenchResult
{
    private final Map<String, Object> fields = new LinkedHashMap<>();

    public BenchResult put(final String name, final Object value)
    {
        fields.put(name, value);
        return this;
    }

    public String toText()
    {
        final StringBuilder text = new StringBuilder();
        fields.forEach((name, value) -> text.append(String.format(Locale.ROOT, "%-22s %s%n", name, format(value))));
        return text.toString();
    }

    public String toJson()
    {
        final StringBuilder json = new StringBuilder("{");
        fields.forEach((name, value) ->
        {
            if (json.length() > 1)
            {
                json.append(',');
            }
            json.append('"').append(name).append("\":");
            if (value instanceof Number || value instanceof Boolean)
            {
                json.append(format(value));
            }
            else
            {
                json.append('"').append(String.valueOf(value).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        });
        return json.append('}').toString();
    }

    private static String format(final Object value)
    {
        if (value instanceof Double d)
        {
            return String.format(Locale.ROOT, "%.1f", d);
        }
        return String.valueOf(value);
    }
}
