package io.sirocco.tests.dds.types;

/** A hand-written stand-in for the IDL-generated ShapeType (keyed by color) until wt-idl is merged. */
public final class Shape
{
    public String color = "";
    public int x;
    public int y;
    public int size;

    public Shape()
    {
    }

    public Shape(final String color, final int x, final int y, final int size)
    {
        this.color = color;
        this.x = x;
        this.y = y;
        this.size = size;
    }

    @Override
    public String toString()
    {
        return "Shape[" + color + "," + x + "," + y + "," + size + "]";
    }
}
