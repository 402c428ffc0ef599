package io.blockscope.server.cell;

/**
 * One versioned value: row, family, qualifier, timestamp, value and tags.
 *
 * <p>The array accessors come with an offset and a length, so an array-backed cell can point into
 * a larger array without copying. A buffer-backed cell ({@link ByteBufferCell}) satisfies them by
 * copying the component onto the heap: correct but expensive, which is exactly what the agent
 * counts. Read-path code should test for {@link ByteBufferCell} and use its buffer accessors.
 */
public interface Cell {

    byte[] getRowArray();

    int getRowOffset();

    short getRowLength();

    byte[] getFamilyArray();

    int getFamilyOffset();

    byte getFamilyLength();

    byte[] getQualifierArray();

    int getQualifierOffset();

    int getQualifierLength();

    long getTimestamp();

    byte[] getValueArray();

    int getValueOffset();

    int getValueLength();

    byte[] getTagsArray();

    int getTagsOffset();

    int getTagsLength();
}
