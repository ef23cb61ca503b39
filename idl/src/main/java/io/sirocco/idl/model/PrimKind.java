package io.sirocco.idl.model;

/** The IDL primitive types, with their serialized size and Java mapping. */
public enum PrimKind
{
    BOOLEAN("boolean", 1, "boolean", "Boolean"),
    CHAR("char", 1, "char", "Character"),
    WCHAR("wchar", 2, "char", "Character"),
    OCTET("octet", 1, "byte", "Byte"),
    INT8("int8", 1, "byte", "Byte"),
    UINT8("uint8", 1, "byte", "Byte"),
    INT16("short", 2, "short", "Short"),
    UINT16("unsigned short", 2, "short", "Short"),
    INT32("long", 4, "int", "Integer"),
    UINT32("unsigned long", 4, "int", "Integer"),
    INT64("long long", 8, "long", "Long"),
    UINT64("unsigned long long", 8, "long", "Long"),
    FLOAT32("float", 4, "float", "Float"),
    FLOAT64("double", 8, "double", "Double");

    private final String idlName;
    private final int size;
    private final String javaType;
    private final String boxed;

    PrimKind(final String idlName, final int size, final String javaType, final String boxed)
    {
        this.idlName = idlName;
        this.size = size;
        this.javaType = javaType;
        this.boxed = boxed;
    }

    public String idlName()
    {
        return idlName;
    }

    public int size()
    {
        return size;
    }

    public String javaType()
    {
        return javaType;
    }

    public String boxed()
    {
        return boxed;
    }

    public boolean isInteger()
    {
        return this != BOOLEAN && this != CHAR && this != WCHAR && this != FLOAT32 && this != FLOAT64;
    }

    public boolean isFloat()
    {
        return this == FLOAT32 || this == FLOAT64;
    }
}
