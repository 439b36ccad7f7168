package io.queuekit.redis.list;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What SLF4J's simple binding (the test classpath's) writes to {@code System.err} while this is
 * open, split into log records: a record is one line, plus the stack trace printed under it. The
 * output still reaches the console. The binding looks up {@code System.err} on every write, so
 * replacing it is enough.
 */
final class LogCapture implements AutoCloseable {
    /** A record's first line: an optional time, the thread in brackets, the level. */
    private static final Pattern RECORD = Pattern.compile(
            "^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3} )?\\[[^\\]]*\\] (TRACE|DEBUG|INFO|WARN|ERROR) .*");

    /** One log record: its line and the stack trace printed under it (empty if none). */
    record Record(String line, List<String> stackTrace) {
        boolean hasStackTrace() {
            return !stackTrace.isEmpty();
        }
    }

    private final PrintStream original = System.err;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (copy) {
                    copy.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (copy) {
                    copy.write(b, off, len);
                }
                original.write(b, off, len);
            }

            @Override
            public void flush() {
                original.flush();
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** The records so far whose line contains {@code text}. */
    List<Record> records(String text) {
        String all;
        synchronized (copy) {
            all = copy.toString(StandardCharsets.UTF_8);
        }
        List<Record> out = new ArrayList<>();
        String line = null;
        List<String> trace = new ArrayList<>();
        for (String l : all.split("\\R")) {
            if (RECORD.matcher(l).matches()) {
                if (line != null && line.contains(text)) {
                    out.add(new Record(line, List.copyOf(trace)));
                }
                line = l;
                trace.clear();
            } else if (line != null && !l.isEmpty()) {
                trace.add(l);
            }
        }
        if (line != null && line.contains(text)) {
            out.add(new Record(line, List.copyOf(trace)));
        }
        return out;
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
