package io.blockscope.server.cell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The serialized form of one cell (a "KeyValue"), as stored in data blocks and sent over RPC.
 *
 * <pre>
 *  offset            size  field
 *  0                 4     key length K   (int: everything from the row length to the timestamp)
 *  4                 4     value length V (int)
 *  8                 2     tags length T  (unsigned short, 0..65535)
 *  10                2     row length R   (0..32767)
 *  12                R     row
 *  12 + R            1     family length F (0..127)
 *  13 + R            F     family
 *  13 + R + F        Q     qualifier, Q = K - R - F - 11
 *  2 + K             8     timestamp (signed)
 *  10 + K            V     value
 *  10 + K + V        T     tags
 * </pre>
 *
 * All integers are big-endian; a cell takes {@code 10 + K + V + T} bytes. The three lengths sit in a
 * fixed 10-byte header so that a reader can step from cell to cell, and find the row, by reading the
 * header alone. The row, family, qualifier and timestamp are contiguous (the "key"), followed by the
 * value and then the tags, which most reads never touch.
 *
 * <p>The widths of the row and family lengths follow {@link Cell}: a row length is a {@code short}
 * and a family length a {@code byte}.
 */
public final class KeyValueFormat {

    /** Bytes before the key: key length, value length, tags length. */
    public static final int HEADER_SIZE = 10;
    /** The key's fixed part: row length (2), family length (1) and timestamp (8). */
    public static final int KEY_OVERHEAD = 11;

    public static final int KEY_LENGTH_OFFSET = 0;
    public static final int VALUE_LENGTH_OFFSET = 4;
    public static final int TAGS_LENGTH_OFFSET = 8;
    public static final int ROW_LENGTH_OFFSET = 10;
    public static final int ROW_OFFSET = 12;

    public static final int MAX_ROW_LENGTH = Short.MAX_VALUE;
    public static final int MAX_FAMILY_LENGTH = Byte.MAX_VALUE;
    public static final int MAX_TAGS_LENGTH = 0xFFFF;

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private KeyValueFormat() {}

    static short readShort(byte[] bytes, int index) {
        return (short) SHORT.get(bytes, index);
    }

    static int readInt(byte[] bytes, int index) {
        return (int) INT.get(bytes, index);
    }

    static long readLong(byte[] bytes, int index) {
        return (long) LONG.get(bytes, index);
    }

    static void writeShort(byte[] bytes, int index, short value) {
        SHORT.set(bytes, index, value);
    }

    static void writeInt(byte[] bytes, int index, int value) {
        INT.set(bytes, index, value);
    }

    static void writeLong(byte[] bytes, int index, long value) {
        LONG.set(bytes, index, value);
    }

    /** The key length K for the given component lengths. */
    public static int keyLength(int rowLength, int familyLength, int qualifierLength) {
        return KEY_OVERHEAD + rowLength + familyLength + qualifierLength;
    }

    /** Serialized bytes of a cell with the given component lengths. */
    public static long serializedLength(
            int rowLength, int familyLength, int qualifierLength, int valueLength, int tagsLength) {
        return (long) HEADER_SIZE
                + KEY_OVERHEAD
                + rowLength
                + familyLength
                + qualifierLength
                + valueLength
                + tagsLength;
    }

    /** Offset of the family length byte, relative to the cell start. */
    static int familyLengthOffset(int rowLength) {
        return ROW_OFFSET + rowLength;
    }

    /** Offset of the timestamp, relative to the cell start. */
    static int timestampOffset(int keyLength) {
        return HEADER_SIZE + keyLength - Long.BYTES;
    }

    /** Offset of the value, relative to the cell start. */
    static int valueOffset(int keyLength) {
        return HEADER_SIZE + keyLength;
    }

    /** Qualifier length implied by the key, row and family lengths. */
    static int qualifierLength(int keyLength, int rowLength, int familyLength) {
        return keyLength - KEY_OVERHEAD - rowLength - familyLength;
    }

    /**
     * Checks a decoded header against the bytes available from the cell start and returns the
     * cell's total length; the message of the exception says which field is out of range.
     */
    static int checkedLength(int keyLength, int valueLength, int tagsLength, int rowLength, int available) {
        if (keyLength < KEY_OVERHEAD) {
            throw new MalformedCellException("key length " + keyLength + " is below the minimum of " + KEY_OVERHEAD);
        }
        if (valueLength < 0) {
            throw new MalformedCellException("negative value length " + valueLength);
        }
        if (rowLength < 0 || rowLength > keyLength - KEY_OVERHEAD) {
            throw new MalformedCellException(
                    "row length " + rowLength + " does not fit a key of " + keyLength + " bytes");
        }
        long total = (long) HEADER_SIZE + keyLength + valueLength + tagsLength;
        if (total > available) {
            throw new MalformedCellException("cell of " + total + " bytes (key " + keyLength + ", value " + valueLength
                    + ", tags " + tagsLength + ") runs past the " + available + " bytes available");
        }
        return (int) total;
    }

    static void checkFamilyLength(int familyLength, int keyLength, int rowLength) {
        if (familyLength < 0 || familyLength > keyLength - KEY_OVERHEAD - rowLength) {
            throw new MalformedCellException("family length " + familyLength + " does not fit a key of " + keyLength
                    + " bytes with a row of " + rowLength);
        }
    }
}
