package io.blockscope.server.storefile;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/** The fixed-size trailer (see {@link StoreFileFormat}): encoding, and decoding with every check. */
record Trailer(
        int dataBlockCount,
        int leafIndexBlockCount,
        int bloomChunkCount,
        long dataSectionEnd,
        long rootIndexOffset,
        long bloomIndexOffset,
        long cellCount,
        long rowCount) {

    private static final int CHECKED_BYTES = StoreFileFormat.TRAILER_SIZE - Integer.BYTES;

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(StoreFileFormat.TRAILER_SIZE);
        out.put(StoreFileFormat.TRAILER_MAGIC)
                .putInt(StoreFileFormat.VERSION)
                .putInt(dataBlockCount)
                .putInt(leafIndexBlockCount)
                .putInt(bloomChunkCount)
                .putLong(dataSectionEnd)
                .putLong(rootIndexOffset)
                .putLong(bloomIndexOffset)
                .putLong(cellCount)
                .putLong(rowCount)
                .putInt(0);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, CHECKED_BYTES);
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * Decodes the trailer found at {@code trailerOffset}, checking magic, version, checksum and that
     * the sections it describes lie in order inside the file.
     */
    static Trailer decode(byte[] bytes, String file, long trailerOffset) throws CorruptStoreFileException {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte[] magic = Arrays.copyOf(bytes, StoreFileFormat.TRAILER_MAGIC.length);
        if (!Arrays.equals(magic, StoreFileFormat.TRAILER_MAGIC)) {
            throw new CorruptStoreFileException(
                    file,
                    trailerOffset,
                    "bad trailer magic 0x" + HexFormat.of().formatHex(magic)
                            + ", expected \"BSCOPESF\": the file is truncated or is not a blockscope store file");
        }
        int version = in.getInt(8);
        if (version != StoreFileFormat.VERSION) {
            throw new CorruptStoreFileException(
                    file,
                    trailerOffset,
                    "bad trailer version " + version + ", this reader understands version " + StoreFileFormat.VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, CHECKED_BYTES);
        int expected = in.getInt(CHECKED_BYTES);
        if ((int) crc.getValue() != expected) {
            throw new CorruptStoreFileException(
                    file,
                    trailerOffset,
                    String.format(
                            "trailer checksum mismatch: expected 0x%08X, actual 0x%08X",
                            expected, (int) crc.getValue()));
        }
        Trailer t = new Trailer(
                in.getInt(12),
                in.getInt(16),
                in.getInt(20),
                in.getLong(24),
                in.getLong(32),
                in.getLong(40),
                in.getLong(48),
                in.getLong(56));
        t.checkLayout(file, trailerOffset);
        return t;
    }

    private void checkLayout(String file, long trailerOffset) throws CorruptStoreFileException {
        if (dataBlockCount < 0 || leafIndexBlockCount < 0 || bloomChunkCount < 0 || cellCount < 0 || rowCount < 0) {
            throw new CorruptStoreFileException(file, trailerOffset, "trailer holds a negative count: " + this);
        }
        if (dataSectionEnd < 0
                || dataSectionEnd > rootIndexOffset
                || rootIndexOffset >= bloomIndexOffset
                || bloomIndexOffset >= trailerOffset) {
            throw new CorruptStoreFileException(
                    file,
                    trailerOffset,
                    "trailer points past end: sections must satisfy"
                            + " dataEnd (" + dataSectionEnd + ") <= rootIndex (" + rootIndexOffset + ") < bloomIndex ("
                            + bloomIndexOffset + ") < trailer (" + trailerOffset + ")");
        }
    }
}
