package io.sirocco.pubsub.content;

import java.util.ArrayList;
import java.util.List;

/** A topic type as the IDL compiler maps it (public fields), with a member of every kind a filter compares. */
public class FilterProbe
{
    /** An IDL enum as generated: declaration order, with its IDL value. */
    public enum Color
    {
        RED(0), GREEN(1), BLUE(7);

        private final int value;

        Color(final int value)
        {
            this.value = value;
        }

        public int value()
        {
            return value;
        }
    }

    /** A nested struct. */
    public static class Inner
    {
        public int depth;
        public String label = "";
    }

    public byte b;
    public short s;
    public int i;
    public long l;
    public float f;
    public double d;
    public char c = 'a';
    public boolean flag;
    public String str = "";
    public Color color = Color.RED;
    public Inner inner = new Inner();
    public int[] arr = new int[3];
    public List<Integer> seq = new ArrayList<>();
    /** An IDL member named like a Java keyword. */
    public int _switch;
}
