package io.queuekit.internal;

import io.queuekit.Headers;
import io.queuekit.SerializationException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How every transport that stores bytes keeps a message's headers: in front of the encoded payload,
 * so that no storage layout, script or envelope changes. A payload without headers is stored as it
 * is, byte for byte as before headers existed, unless it begins with {@link #MAGIC}; then, and
 * whenever there are headers, it is framed as
 * {@code MAGIC <block length> ':' <block> <payload>}, the block being
 * {@code <name length> ':' <name> <value length> ':' <value>} per header, lengths in decimal bytes.
 * So reading is unambiguous whatever bytes a codec makes: a section that begins with {@code MAGIC}
 * is always a frame. A reader that knows nothing of frames sees the framed bytes as the payload: a
 * JSON codec refuses them (no JSON begins with a NUL), a text or bytes codec passes them on.
 */
public final class HeaderFrame {
    /** What a framed section begins with: NUL and "qkh". */
    static final byte[] MAGIC = {0, 'q', 'k', 'h'};

    /**
     * A stored section read back.
     *
     * @param headers the headers (empty for an unframed section)
     * @param payload the encoded payload
     */
    @SuppressWarnings("ArrayRecordComponent") // a value read once, never compared
    public record Read(Headers headers, byte[] payload) {}

    private HeaderFrame() {}

    /** The section that stores {@code payload} with {@code headers}: the payload itself if it can. */
    public static byte[] frame(Headers headers, byte[] payload) {
        if (headers.isEmpty() && !framed(payload)) {
            return payload;
        }
        ByteArrayOutputStream block = new ByteArrayOutputStream(headers.bytes() + 8 * headers.size());
        for (Map.Entry<String, String> e : headers.asMap().entrySet()) {
            field(block, e.getKey().getBytes(StandardCharsets.UTF_8));
            field(block, e.getValue().getBytes(StandardCharsets.UTF_8));
        }
        byte[] length = (Integer.toString(block.size()) + ':').getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[MAGIC.length + length.length + block.size() + payload.length];
        System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
        System.arraycopy(length, 0, out, MAGIC.length, length.length);
        int p = MAGIC.length + length.length;
        System.arraycopy(block.toByteArray(), 0, out, p, block.size());
        System.arraycopy(payload, 0, out, p + block.size(), payload.length);
        return out;
    }

    /** Whether {@code section} is a frame (else it is a payload stored as it is). */
    public static boolean framed(byte[] section) {
        return framed(section, 0);
    }

    /** Whether the section that begins at {@code from} in {@code stored} is a frame. */
    public static boolean framed(byte[] stored, int from) {
        if (stored.length - from < MAGIC.length) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (stored[from + i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The headers and payload a section stores; {@code section} itself as the payload when it is
     * not framed.
     *
     * @throws SerializationException if it is framed but the frame is not well formed
     */
    public static Read read(byte[] section) {
        if (!framed(section)) {
            return new Read(Headers.empty(), section);
        }
        int[] at = {MAGIC.length};
        int blockLength = length(section, at);
        int end = at[0] + blockLength;
        if (end > section.length) {
            throw malformed("its header block runs past its end");
        }
        LinkedHashMap<String, String> headers = new LinkedHashMap<>();
        while (at[0] < end) {
            String name = text(section, at, end);
            String value = text(section, at, end);
            headers.put(name, value);
        }
        try {
            return new Read(Headers.of(headers), Arrays.copyOfRange(section, end, section.length));
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
    }

    /** The headers of a section, or none if it is malformed (for listings that must not fail). */
    public static Headers headersOrEmpty(byte[] section) {
        try {
            return read(section).headers();
        } catch (SerializationException e) {
            return Headers.empty();
        }
    }

    private static void field(ByteArrayOutputStream out, byte[] bytes) {
        out.writeBytes((Integer.toString(bytes.length) + ':').getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(bytes);
    }

    private static String text(byte[] b, int[] at, int end) {
        int length = length(b, at);
        if (at[0] + length > end) {
            throw malformed("a header runs past the header block");
        }
        String s;
        try {
            s = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, at[0], length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed("a header is not UTF-8");
        }
        at[0] += length;
        return s;
    }

    /** The decimal length at {@code at[0]} up to its colon, moving {@code at[0]} past the colon. */
    private static int length(byte[] b, int[] at) {
        long n = 0;
        int i = at[0];
        while (i < b.length && b[i] != ':') {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || i - at[0] >= 9) {
                throw malformed("a length is not a number");
            }
            n = n * 10 + d;
            i++;
        }
        if (i == at[0] || i == b.length) {
            throw malformed("a length is missing");
        }
        at[0] = i + 1;
        return (int) n;
    }

    private static SerializationException malformed(String why) {
        return new SerializationException("stored headers are not well formed: " + why, null);
    }
}
