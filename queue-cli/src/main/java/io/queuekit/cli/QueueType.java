package io.queuekit.cli;

import java.util.Locale;
import picocli.CommandLine.TypeConversionException;

/** The two queue layouts the operator commands know: the list queue and the delay (zset) queue. */
enum QueueType {
    LIST,
    ZSET,
    /** A stream topic's consumer group, named by {@code --group}: never read from the keys' layout. */
    STREAM;

    /** {@code list} or {@code zset}, as on the command line and in output. */
    String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** For {@code --type}. */
    static QueueType parse(String word) {
        for (QueueType t : values()) {
            if (t.word().equals(word)) {
                return t;
            }
        }
        throw new TypeConversionException("must be list, zset or stream: '" + word + "'");
    }
}
