package io.queuekit.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What SLF4J's simple binding ({@code slf4j-simple} on a test classpath) writes to
 * {@code System.err} while this is open, split into log records: a record is one line, plus the
 * stack trace printed under it. The output still reaches the console. The binding looks up
 * {@code System.err} on every write, so replacing it is enough. For tests of what is logged, for
 * example that an outage logs one stack trace; it replaces {@code System.err} for the whole JVM, so
 * use it in tests that do not run in parallel.
 *
 * <pre>{@code
 * try (LogCapture log = new LogCapture()) {
 *     ... // make queuekit fail
 *     assertThat(log.records("queuekit orders")).filteredOn(LogCapture.Record::hasStackTrace).hasSize(1);
 * }
 * }</pre>
 */
public final class LogCapture implements AutoCloseable {
    /** A record's first line: an optional time, the thread in brackets, the level. */
    private static final Pattern RECORD =
            Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3} )?\\[[^\\]]*\\] (TRACE|DEBUG|INFO|WARN|ERROR) .*");

    /**
     * One log record.
     *
     * @param line its first line: time (if configured), thread, level, logger and message
     * @param stackTrace the lines printed under it, empty if none
     */
    @SuppressWarnings("JavaLangClash") // read as LogCapture.Record wherever it is used, never imported alone
    public record Record(String line, List<String> stackTrace) {
        /** Whether a stack trace was printed with it. */
        public boolean hasStackTrace() {
            return !stackTrace.isEmpty();
        }
    }

    private final PrintStream original = System.err;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    /** Starts capturing, until {@link #close()}. */
    public LogCapture() {
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
    public List<Record> records(String text) {
        String all;
        synchronized (copy) {
            all = copy.toString(StandardCharsets.UTF_8);
        }
        List<Record> out = new ArrayList<>();
        String line = null;
        List<String> trace = new ArrayList<>();
        for (String l : all.split("\\R", -1)) {
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

    /** Stops capturing: {@code System.err} is what it was before. */
    @Override
    public void close() {
        System.setErr(original);
    }
}
