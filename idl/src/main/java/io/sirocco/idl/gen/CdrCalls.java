package io.sirocco.idl.gen;

import io.sirocco.idl.model.PrimKind;

/** The names of the {@code dds-api} CDR writer and reader methods that generated code calls, by type and size. */
final class CdrCalls
{
    private CdrCalls()
    {
    }

    static String primWriter(final PrimKind k)
    {
        return switch (k)
        {
            case BOOLEAN -> "writeBoolean";
            case CHAR -> "writeChar8";
            case WCHAR -> "writeChar16";
            case OCTET, INT8, UINT8 -> "writeInt8";
            case INT16, UINT16 -> "writeInt16";
            case INT32, UINT32 -> "writeInt32";
            case INT64, UINT64 -> "writeInt64";
            case FLOAT32 -> "writeFloat32";
            case FLOAT64 -> "writeFloat64";
        };
    }

    static String primReader(final PrimKind k)
    {
        return primWriter(k).replace("write", "read");
    }

    static String sizedWriter(final int size)
    {
        return switch (size)
        {
            case 1 -> "writeInt8";
            case 2 -> "writeInt16";
            case 4 -> "writeInt32";
            default -> "writeInt64";
        };
    }

    static String sizedCast(final int size)
    {
        return switch (size)
        {
            case 1 -> "(byte) ";
            case 2 -> "(short) ";
            case 4 -> "(int) ";
            default -> "";
        };
    }

    static String bulkSuffix(final PrimKind k)
    {
        return switch (k)
        {
            case BOOLEAN -> "Booleans";
            case CHAR -> "Char8s";
            case WCHAR -> "Char16s";
            case OCTET, INT8, UINT8 -> "Int8s";
            case INT16, UINT16 -> "Int16s";
            case INT32, UINT32 -> "Int32s";
            case INT64, UINT64 -> "Int64s";
            case FLOAT32 -> "Float32s";
            case FLOAT64 -> "Float64s";
        };
    }

    static String sizedReader(final int size)
    {
        return sizedWriter(size).replace("write", "read");
    }
}
