package io.sirocco.dds.type.cdr;

import java.lang.foreign.MemorySegment;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * The DDS KeyHash (XTypes 1.3 §7.6.8, DDSI-RTPS 2.5 §9.6.4.8): the key members, ordered by member id, serialized as
 * PLAIN_CDR2 big-endian without encapsulation or member headers (the "key holder"). When the key holder's maximum
 * size is at most 16 bytes the hash is those bytes zero-padded to 16; otherwise (including unbounded keys) it is
 * their MD5. The choice depends on the type's maximum key size, never on the sample.
 *
 * <p>Thread-safe: each thread uses its own scratch buffer and digest.
 */
public final class KeyHashes
{
    public static final int KEY_HASH_LENGTH = 16;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private KeyHashes()
    {
    }

    /**
     * Computes the KeyHash of {@code sample} into {@code out16}.
     *
     * @param maxKeySize the key holder's maximum serialized size in bytes, or -1 when unbounded.
     * @param keyHolderWriter writes the key holder (generated {@code writeKeyHolder}).
     */
    public static <T> void compute(
        final T sample, final long maxKeySize, final BiConsumer<CdrWriter, T> keyHolderWriter, final byte[] out16)
    {
        final Scratch scratch = SCRATCH.get();
        final CdrWriter writer = CdrWriter.localForKey();
        if (maxKeySize < 0 || maxKeySize > scratch.bytes.length)
        {
            writer.resetMeasure(2);
            keyHolderWriter.accept(writer, sample);
            scratch.ensure((int)writer.length());
        }
        writer.reset(scratch.segment, 0, true, 2);
        keyHolderWriter.accept(writer, sample);
        final int length = (int)writer.length();
        if (maxKeySize >= 0 && maxKeySize <= KEY_HASH_LENGTH)
        {
            System.arraycopy(scratch.bytes, 0, out16, 0, length);
            Arrays.fill(out16, length, KEY_HASH_LENGTH, (byte)0);
        }
        else
        {
            final MessageDigest md5 = scratch.md5;
            md5.reset();
            md5.update(scratch.bytes, 0, length);
            try
            {
                md5.digest(out16, 0, KEY_HASH_LENGTH);
            }
            catch (final DigestException ex)
            {
                throw new IllegalStateException("MD5 digest failed", ex);
            }
        }
    }

    /**
     * The key holder's serialized bytes (for tests and diagnostics), big-endian XCDR2.
     */
    public static <T> byte[] keyHolderBytes(final T sample, final BiConsumer<CdrWriter, T> keyHolderWriter)
    {
        final CdrWriter writer = new CdrWriter().resetMeasure(2);
        keyHolderWriter.accept(writer, sample);
        final byte[] bytes = new byte[(int)writer.length()];
        writer.reset(MemorySegment.ofArray(bytes), 0, true, 2);
        keyHolderWriter.accept(writer, sample);
        return bytes;
    }

    private static final class Scratch
    {
        byte[] bytes = new byte[256];
        MemorySegment segment = MemorySegment.ofArray(bytes);
        final MessageDigest md5;

        Scratch()
        {
            try
            {
                md5 = MessageDigest.getInstance("MD5");
            }
            catch (final NoSuchAlgorithmException ex)
            {
                throw new IllegalStateException("the JDK always provides MD5", ex);
            }
        }

        void ensure(final int length)
        {
            if (length > bytes.length)
            {
                bytes = new byte[Math.max(length, bytes.length * 2)];
                segment = MemorySegment.ofArray(bytes);
            }
        }
    }
}
